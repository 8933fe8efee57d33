import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rules that keep the tree's shape: they must fire on the code they exist to stop. */
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('lint rules', { timeout: 60_000 }, () => {
  it('stop a feature from importing another feature', async () => {
    const ids = await ruleIds(
      "import { ADMIN_HOME_PATH } from '../../auth/utils/post-login-path';\nexport const x = ADMIN_HOME_PATH;\n",
      'apps/web/src/features/wallet/routes/example.ts',
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('let a feature import shared code', async () => {
    const ids = await ruleIds(
      "import { readStoredUser } from '../../../lib/auth-storage';\nexport const x = readStoredUser;\n",
      'apps/web/src/features/wallet/routes/example.ts',
    );
    expect(ids).not.toContain('import-x/no-restricted-paths');
  });

  it('stop shared code from importing a feature', async () => {
    const ids = await ruleIds(
      "import { ADMIN_HOME_PATH } from '../features/auth/utils/post-login-path';\nexport const x = ADMIN_HOME_PATH;\n",
      'apps/web/src/lib/example.ts',
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('keep packages framework-free', async () => {
    const ids = await ruleIds(
      "import Fastify from 'fastify';\nexport const x = Fastify;\n",
      'packages/contracts/src/example.ts',
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('refuse parseFloat, since money is integer paise', async () => {
    const ids = await ruleIds("export const amount = parseFloat('1.10');\n", 'apps/server/src/example.ts');
    expect(ids).toContain('no-restricted-syntax');
  });

  it('keep number, money and date formatting in the one place that follows the language', async () => {
    const web = 'apps/web/src/features/wallet/routes/example.tsx';
    const rupees = await ruleIds(
      "import { formatInr } from '@hasta/ledger/money';\nexport const x = formatInr('1.00', 'en-IN');\n",
      web,
    );
    expect(rupees).toContain('no-restricted-imports');
    const intl = await ruleIds("export const x = new Intl.NumberFormat('en-IN').format(1);\n", web);
    expect(intl).toContain('no-restricted-syntax');
    const date = await ruleIds("export const x = new Date().toLocaleDateString('en-IN');\n", web);
    expect(date).toContain('no-restricted-syntax');
    const shared = await ruleIds(
      "import { formatMoney } from '../../../lib/i18n-format';\nexport const x = formatMoney('1.00');\n",
      web,
    );
    expect(shared).toEqual([]);
  });

  it('stop a route from querying the database', async () => {
    const importsKysely = await ruleIds(
      "import { sql } from 'kysely';\nexport const x = sql`SELECT 1`;\n",
      'apps/server/src/routes/example.ts',
    );
    expect(importsKysely).toContain('no-restricted-imports');
    const queries = await ruleIds(
      "export async function f(db: { selectFrom(t: string): unknown }) {\n  return db.selectFrom('users');\n}\n",
      'apps/server/src/routes/example.ts',
    );
    expect(queries).toContain('no-restricted-syntax');
  });

  it('let a route call a use case and read a field named like a query', async () => {
    const ids = await ruleIds(
      "import { AppError } from '../lib/app-error';\nexport const x = (outcome: { transaction: unknown }) => [AppError, outcome.transaction];\n",
      'apps/server/src/routes/example.ts',
    );
    expect(ids).toEqual([]);
  });

  it('keep Fastify out of use cases and repositories', async () => {
    const fastify = await ruleIds(
      "import type { FastifyRequest } from 'fastify';\nexport type X = FastifyRequest;\n",
      'apps/server/src/wallet/example.ts',
    );
    expect(fastify).toContain('no-restricted-imports');
    const route = await ruleIds(
      "import { idempotencyKey } from '../routes/support/idempotency-key';\nexport const x = idempotencyKey;\n",
      'apps/server/src/wallet/example.ts',
    );
    expect(route).toContain('no-restricted-imports');
  });
});
