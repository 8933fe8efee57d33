import { openDatabase } from '../db/database';
import { loadEnvOrExit } from '../load-env';
import { auditLedger } from './ledger';

/** npm run audit: checks the books of the configured database; exit code 1 when anything is off. */
const env = loadEnvOrExit();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  const findings = await auditLedger(database.db);
  if (findings.length === 0) {
    console.log('Ledger audit: the books balance.');
  } else {
    console.error(
      `Ledger audit found ${findings.length} problem(s):\n${findings.map((line) => `- ${line}`).join('\n')}`,
    );
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
