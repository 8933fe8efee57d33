import { buildApp } from './app';
import { ensureAdmin } from './bootstrap/admin';
import { DEMO_MERCHANT, DEMO_PASSWORD, DEMO_USERS, seedDemoData, seedKiosks } from './bootstrap/demo-data';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { ledgerLimits } from './env';
import { setPasswordHashing } from './lib/password';
import { loadEnvOrExit } from './load-env';
import { createMessenger } from './messaging/create-messenger';

const env = loadEnvOrExit();
setPasswordHashing(env.PASSWORD_HASHING);
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
const applied = await migrate(database);
const admin = await ensureAdmin(
  database.db,
  env.ADMIN_EMAIL && env.ADMIN_PASSWORD
    ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
    : undefined,
);
await seedKiosks(database.db);
const seedDemo = env.SEED_DEMO ?? (env.DATABASE_URL === undefined && env.NODE_ENV !== 'production');
const demo = seedDemo ? await seedDemoData(database.db, ledgerLimits(env)) : undefined;

const messenger = createMessenger(env, database.db);
const app = await buildApp({ env, database, messenger });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: env.PORT, host: env.HOST });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : env.PORT;
const url = `http://localhost:${port}`;

const lines = [
  '',
  `Hasta is running at ${url}`,
  `  database: ${database.kind === 'pglite' ? `embedded PGlite in ${env.DATA_DIR}` : 'PostgreSQL'}` +
    (applied.length ? ` (migrated: ${applied.join(', ')})` : ''),
  `  messages: email -> ${messenger.describe().email}, sms -> ${messenger.describe().sms}` +
    (env.NODE_ENV === 'production' ? '' : ` (outbox: ${url}/dev/outbox)`),
  `  API docs: ${url}/api/docs`,
  `  log anchoring: ${
    env.ANCHOR === 'evm'
      ? `${env.ANCHOR_CHAIN}, registry ${env.ANCHOR_CONTRACT}`
      : 'none (ANCHOR=none: receipts say they are not anchored)'
  }`,
];
if (admin.kind === 'generated') {
  lines.push(`  admin login (shown once): ${admin.email} / ${admin.password}`);
} else if (admin.kind === 'configured') {
  lines.push(`  admin login: ${admin.email} (password from ADMIN_PASSWORD)`);
}
if (demo) {
  lines.push(
    `  demo logins (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((user) => user.email).join(', ')}; merchant ${DEMO_MERCHANT.email}`,
  );
}
console.log(lines.join('\n') + '\n');
