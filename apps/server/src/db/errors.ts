/** PostgreSQL's SQLSTATE of a failed statement (node-postgres and PGlite both carry it as `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** unique_violation: a row with the same key exists (or a concurrent insert of it committed first). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}
