import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key';

const from = (ip: string) => clientKey({ ip } as FastifyRequest);

describe('clientKey', () => {
  it('is an IPv4 address as it is, an IPv4-mapped IPv6 address as its IPv4 one', () => {
    expect(from('203.0.113.7')).toBe('203.0.113.7');
    expect(from('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is an IPv6 address by its /64, however it is written', () => {
    expect(from('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(from('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(from('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(from('::1')).toBe('0:0:0:0::/64');
    expect(from('2001:db8:1:2::1')).not.toBe(from('2001:db8:1:3::1'));
  });
});
