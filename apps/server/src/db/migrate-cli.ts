import { loadEnvOrExit } from '../load-env';
import { openDatabase } from './database';
import { migrate } from './migrate';

const env = loadEnvOrExit();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  const applied = await migrate(database);
  console.log(applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`);
} finally {
  await database.close();
}
