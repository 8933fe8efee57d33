/** PostgreSQL's SQLSTATE of a failed statement (node-postgres and PGlite both carry it as `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** unique_violation: a row with the same key exists (or a concurrent insert of it committed first). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** How long a caller refused for want of a writable database waits before trying again, in seconds. */
export const DATABASE_RETRY_AFTER_S = 2;

/**
 * No database host takes writes now: every host listed in DATABASE_URL is unreachable or read-only (a
 * standby not yet promoted). The request is refused with 503 and Retry-After; nothing it asked was done.
 */
export class DatabaseUnavailableError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`no writable PostgreSQL host: ${reasons.join('; ')}`);
    this.name = 'DatabaseUnavailableError';
  }
}

/** The SQLSTATEs of a connection that is gone or of a server going away (class 08, 57P01-57P03). */
const LOST_STATES = new Set(['57P01', '57P02', '57P03']);
/** node's socket errors when the database's machine or process is gone or unreachable. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own words for a connection that died or never came (it sets no code on these). */
const LOST_MESSAGES = ['Connection terminated', 'not queryable'];
/**
 * node-postgres's pool had no free connection within its connect timeout: every connection is busy (e.g.
 * commits waiting for a synchronous standby that is gone). The host is fine; the request waits no longer.
 */
const POOL_EXHAUSTED_MESSAGE = 'timeout exceeded when trying to connect';

/**
 * The connection to the database broke (the server died, restarted, was demoted, or cannot be reached):
 * the host that was the primary may no longer be, and the statement's outcome is the database's to tell.
 */
export function isConnectionLoss(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined && (state.startsWith('08') || LOST_STATES.has(state) || SOCKET_CODES.has(state)))
    return true;
  const message = error instanceof Error ? error.message : '';
  return LOST_MESSAGES.some((words) => message.includes(words));
}

/** read_only_sql_transaction: the host took the statement as a standby's (it was demoted, or is one). */
export function isReadOnlyRefusal(error: unknown): boolean {
  return sqlState(error) === '25006';
}

/** too_many_connections: the database is at max_connections; a moment later there may be room. */
const TOO_MANY_CONNECTIONS = '53300';

/**
 * A failure that says nothing about the request and everything about the database's availability: it is
 * answered 503 with Retry-After, never 500. A write refused so was not acknowledged; one whose COMMIT was
 * cut off may or may not have happened, and is sent again with its Idempotency-Key.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    error instanceof DatabaseUnavailableError ||
    isConnectionLoss(error) ||
    isReadOnlyRefusal(error) ||
    sqlState(error) === TOO_MANY_CONNECTIONS ||
    (error instanceof Error && error.message === POOL_EXHAUSTED_MESSAGE)
  );
}
