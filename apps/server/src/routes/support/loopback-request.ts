import { isIPv4 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Headers a proxy adds: a request carrying one came from elsewhere, whatever the socket's peer. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host'] as const;

/** 127.0.0.0/8, ::1, and 127.x written as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === '::1') return true;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIPv4(v4) && v4.startsWith('127.');
}

/**
 * A request from this machine itself: the socket's peer is a loopback address and no proxy forwarded it. The
 * socket is read, not `request.ip`, so no TRUST_PROXY setting and no header makes a remote client look local;
 * a reverse proxy on the same machine usually adds X-Forwarded-For or Forwarded, which makes it remote here.
 */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  return isLoopbackAddress(request.socket.remoteAddress);
}
