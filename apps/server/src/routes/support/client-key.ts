import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

const IPV6_GROUPS = 8;
const IPV6_PREFIX_GROUPS = 4;

/** The eight groups of an IPv6 address, "::" expanded (a trailing dotted IPv4 counts as two). */
function ipv6Groups(address: string): string[] {
  const split = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [head = '', tail] = address.split('::');
  const first = split(head);
  const last = tail === undefined ? [] : split(tail);
  const zeros = Array.from({ length: Math.max(0, IPV6_GROUPS - first.length - last.length) }, () => '0');
  return [...first, ...zeros, ...last];
}

/**
 * Who a request comes from, as the attempt and SMS limits count clients: its address (request.ip, which
 * honours TRUST_PROXY), an IPv6 client by its /64 (one subscriber's usual allocation, so rotating
 * addresses inside it does not make new clients). An IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientKey(request: FastifyRequest): string {
  const address = request.ip;
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const prefix = ipv6Groups(address.split('%')[0]!)
    .slice(0, IPV6_PREFIX_GROUPS)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}
