/**
 * npm run anchor:deploy: deploys the anchoring registry for this server's log on ANCHOR_CHAIN (through
 * ANCHOR_RPC_URL, or the chain's public endpoint outside production), owned by ANCHOR_PRIVATE_KEY's account,
 * and prints the ANCHOR_CONTRACT to configure. Run it once per log and chain, before setting ANCHOR=evm.
 */
import { http, type Hex } from 'viem';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { loadEnvOrExit } from '../load-env';
import { loadLogKeys } from '../tlog/transparency-log';
import { ANCHOR_CHAINS, EvmAnchorRegistry } from './evm-registry';

const env = loadEnvOrExit();
if (!env.ANCHOR_PRIVATE_KEY) {
  console.error('ANCHOR_PRIVATE_KEY is needed: the registry belongs to the key that deploys it');
  process.exit(1);
}
if (env.NODE_ENV === 'production' && !env.ANCHOR_RPC_URL) {
  console.error('ANCHOR_RPC_URL is needed in production');
  process.exit(1);
}
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await migrate(database);
  // The log's origin, as its checkpoints name it: the registry is deployed for this log only.
  const { origin } = await loadLogKeys(database.db, env);
  const chain = ANCHOR_CHAINS[env.ANCHOR_CHAIN];
  const contract = await EvmAnchorRegistry.deploy({
    chainName: env.ANCHOR_CHAIN,
    chain,
    transport: http(env.ANCHOR_RPC_URL ?? chain.rpcUrls.default.http[0], { timeout: 60_000 }),
    privateKey: env.ANCHOR_PRIVATE_KEY as Hex,
    origin,
  });
  console.log(`LogAnchorRegistry for log ${origin} deployed on ${env.ANCHOR_CHAIN} (chain id ${chain.id}).`);
  console.log(`Configure: ANCHOR=evm ANCHOR_CHAIN=${env.ANCHOR_CHAIN} ANCHOR_CONTRACT=${contract}`);
} finally {
  await database.close();
}
