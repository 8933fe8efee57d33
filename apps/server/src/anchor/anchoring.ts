/** The server's anchoring, from its environment: nothing for ANCHOR=none, the EVM worker for ANCHOR=evm. */
import type { Kysely } from 'kysely';
import { http, type Address, type Hex } from 'viem';
import type { Schema } from '../db/schema';
import type { Env } from '../env';
import { AnchorWorker, type AnchorLogger } from './anchor-worker';
import { ANCHOR_CHAINS, EvmAnchorRegistry } from './evm-registry';

/** How long one JSON-RPC request may take, and how often a failed one is retried, before a round gives up. */
const RPC_TIMEOUT_MS = 20_000;
const RPC_RETRIES = 2;

/** The registry client ANCHOR_* describe (ANCHOR=evm only). */
export function anchorRegistryFromEnv(env: Env): EvmAnchorRegistry {
  if (env.ANCHOR !== 'evm' || !env.ANCHOR_PRIVATE_KEY || !env.ANCHOR_CONTRACT) {
    throw new Error('ANCHOR=evm with ANCHOR_PRIVATE_KEY and ANCHOR_CONTRACT is needed to reach the registry');
  }
  const chain = ANCHOR_CHAINS[env.ANCHOR_CHAIN];
  const url = env.ANCHOR_RPC_URL ?? chain.rpcUrls.default.http[0];
  return new EvmAnchorRegistry({
    chainName: env.ANCHOR_CHAIN,
    chain,
    transport: http(url, { timeout: RPC_TIMEOUT_MS, retryCount: RPC_RETRIES }),
    privateKey: env.ANCHOR_PRIVATE_KEY as Hex,
    contract: env.ANCHOR_CONTRACT as Address,
  });
}

/**
 * The anchoring worker for ANCHOR=evm (null for none), its setup checked: a chain, contract or key that do
 * not fit together stop the server; a chain that does not answer yet only delays the first anchor.
 */
export async function createAnchorWorker(input: {
  env: Env;
  db: Kysely<Schema>;
  origin: string;
  logger: AnchorLogger;
}): Promise<AnchorWorker | null> {
  const { env } = input;
  if (env.ANCHOR === 'none') return null;
  const worker = new AnchorWorker(input.db, anchorRegistryFromEnv(env), {
    origin: input.origin,
    intervalMs: env.ANCHOR_INTERVAL_MS,
    maxEntries: env.ANCHOR_MAX_ENTRIES,
    logger: input.logger,
  });
  await worker.checkSetup();
  return worker;
}
