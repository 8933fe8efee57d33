import { BlockList, isIPv4 } from 'node:net';
import type { TrustProxy } from '../env';

/** Where a proxy in front of the server can be: this machine, and the private and link-local networks. */
const PROXY_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
] as const) {
  PROXY_NETWORKS.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PROXY_NETWORKS.addSubnet(network, prefix, 'ipv6');
}

/** True for an address on this machine or a private network (IPv4-mapped IPv6 addresses included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIPv4(mapped)) return PROXY_NETWORKS.check(mapped, 'ipv4');
  try {
    return PROXY_NETWORKS.check(address, 'ipv6');
  } catch {
    return false;
  }
}

/** The trustProxy option Fastify gets for a TRUST_PROXY setting. */
export type FastifyTrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as Fastify's trustProxy. Fastify 5.12 turned its own hop-count form off (a number trusts
 * nothing: it cannot tell a proxy from a client that reached the server directly), so a hop count becomes a
 * function: the first `hops` addresses are proxies, and the nearest one, the socket's peer, must be on this
 * machine or a private network. A client that reaches the server directly from the internet is then its
 * own address, whatever X-Forwarded-For it sends; a proxy with a public address must be listed by address.
 */
export function fastifyTrustProxy(setting: TrustProxy): FastifyTrustProxy {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  if (hops === 0) return false;
  return (address, hop) => hop < hops && (hop > 0 || isPrivateAddress(address));
}
