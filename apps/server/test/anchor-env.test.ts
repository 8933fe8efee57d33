import { describe, expect, it } from 'vitest';
import { anchorRegistryFromEnv } from '../src/anchor/anchoring';
import { EnvError, parseEnv } from '../src/env';

const KEY = `0x${'11'.repeat(32)}`;
const CONTRACT = `0x${'ab'.repeat(20)}`;
const PRODUCTION = {
  NODE_ENV: 'production',
  COOKIE_SECRET: 'c'.repeat(32),
  PUBLIC_URL: 'https://hasta.example',
  WEBAUTHN_RP_ID: 'hasta.example',
  WEBAUTHN_ORIGINS: 'https://hasta.example',
  SMTP_HOST: 'smtp.example',
  SMS_GATEWAY_URL: 'https://sms.example/send',
  LOG_SIGNING_KEY: 'PRIVATE+KEY+hasta.example/log+00000000+AAAA',
  LOG_SECRET: 's'.repeat(32),
  PALM_KEY: 'p'.repeat(32),
};

function refusal(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error('the environment was accepted');
}

describe('the anchoring settings', () => {
  it('default to no anchoring, polygonAmoy outside production and polygon in it, every 10 minutes or 10,000 entries', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      ANCHOR: 'none',
      ANCHOR_CHAIN: 'polygonAmoy',
      ANCHOR_INTERVAL_MS: 600_000,
      ANCHOR_MAX_ENTRIES: 10_000,
      ANCHOR_CHECK_INTERVAL_MS: 5_000,
    });
    expect(parseEnv(PRODUCTION).ANCHOR_CHAIN).toBe('polygon');
    expect(parseEnv({ ...PRODUCTION, ANCHOR_CHAIN: 'celo' }).ANCHOR_CHAIN).toBe('celo');
  });

  it('need the key and the registry for ANCHOR=evm, and an RPC URL in production', () => {
    expect(refusal({ ANCHOR: 'evm' })).toBe(
      'Invalid environment: ANCHOR_PRIVATE_KEY is required when ANCHOR=evm; ANCHOR_CONTRACT is required when ANCHOR=evm',
    );
    expect(
      refusal({ ...PRODUCTION, ANCHOR: 'evm', ANCHOR_PRIVATE_KEY: KEY, ANCHOR_CONTRACT: CONTRACT }),
    ).toBe(
      'Invalid environment: ANCHOR_RPC_URL is required in production when ANCHOR=evm (a public endpoint is not for production)',
    );
    const production = parseEnv({
      ...PRODUCTION,
      ANCHOR: 'evm',
      ANCHOR_PRIVATE_KEY: KEY,
      ANCHOR_CONTRACT: CONTRACT,
      ANCHOR_RPC_URL: 'https://polygon-rpc.example/v1/key',
    });
    const registry = anchorRegistryFromEnv(production);
    expect(registry).toMatchObject({ chainName: 'polygon', chainId: 137, contract: CONTRACT });
    // Outside production the chain's public endpoint will do.
    const development = parseEnv({
      ANCHOR: 'evm',
      ANCHOR_PRIVATE_KEY: KEY,
      ANCHOR_CONTRACT: CONTRACT,
      ANCHOR_CHAIN: 'celoSepolia',
    });
    expect(anchorRegistryFromEnv(development)).toMatchObject({ chainName: 'celoSepolia', chainId: 11142220 });
  });

  it.each([
    [{ ANCHOR: 'yes' }, 'ANCHOR must be none or evm'],
    [{ ANCHOR_CHAIN: 'ethereum' }, 'ANCHOR_CHAIN must be one of polygon, polygonAmoy, celo, celoSepolia'],
    [{ ANCHOR_RPC_URL: 'ws://node.example' }, 'ANCHOR_RPC_URL must be an http(s):// JSON-RPC URL'],
    [{ ANCHOR_PRIVATE_KEY: '11'.repeat(32) }, 'ANCHOR_PRIVATE_KEY must be 0x and 64 hex digits'],
    [{ ANCHOR_CONTRACT: '0x1234' }, 'ANCHOR_CONTRACT must be the registry’s 0x address'],
    [{ ANCHOR_INTERVAL_MS: '1000' }, 'ANCHOR_INTERVAL_MS'],
    [{ ANCHOR_MAX_ENTRIES: '0' }, 'ANCHOR_MAX_ENTRIES'],
  ])('refuse %j with one clear line', (source, message) => {
    expect(refusal(source)).toContain(message);
  });
});
