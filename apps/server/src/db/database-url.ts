/**
 * DATABASE_URL in libpq's multi-host form: `postgres://user:pass@host1:5432,host2:5433/db?sslmode=require`.
 * node-postgres takes one host per connection string, so the URL is split into one single-host URL per host,
 * each keeping the user, password, database and parameters. The server then finds the writable host among
 * them itself (primary-pool.ts): `target_session_attrs` is read here and must ask for a writable host, or be
 * absent, since the server writes.
 */

/** More hosts than this is a typo, not a deployment (libpq has no limit; a primary and a few standbys). */
export const MAX_DATABASE_HOSTS = 8;
const DEFAULT_PORT = 5432;
const WRITABLE_TARGETS = new Set(['read-write', 'primary']);

export interface DatabaseHost {
  /** `host:port` as written (IPv6 in brackets), for logs and /api/health. */
  address: string;
  /** The same URL with this host alone, as node-postgres takes it. */
  connectionString: string;
}

export class DatabaseUrlError extends Error {}

const URL_PATTERN = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;
const HOST_PATTERN = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::([0-9]{1,5}))?$/;

/** The hosts of a postgres:// URL, in the order written; throws a DatabaseUrlError saying what is wrong. */
export function databaseHosts(url: string): DatabaseHost[] {
  const match = URL_PATTERN.exec(url.trim());
  if (!match) throw new DatabaseUrlError('must be a postgres:// or postgresql:// URL');
  const [, scheme, userInfo, hostList = '', path = '', query = ''] = match;
  const params = new URLSearchParams(query.slice(1));
  const target = params.get('target_session_attrs');
  if (target !== null && !WRITABLE_TARGETS.has(target))
    throw new DatabaseUrlError('target_session_attrs must be read-write or primary (the server writes)');
  params.delete('target_session_attrs');
  const rest = params.size > 0 ? `?${params.toString()}` : '';
  const written = hostList === '' ? [] : hostList.split(',');
  if (written.length > MAX_DATABASE_HOSTS)
    throw new DatabaseUrlError(`must list at most ${MAX_DATABASE_HOSTS} hosts`);
  // No host at all: libpq's default (a local socket, or ?host=…), which node-postgres reads as it always did.
  if (written.length === 0) return [{ address: 'localhost', connectionString: url.trim() }];
  const hosts = written.map((text) => {
    const host = HOST_PATTERN.exec(text);
    if (!host) throw new DatabaseUrlError(`has a host that is not host or host:port: "${text}"`);
    const port = host[2] === undefined ? DEFAULT_PORT : Number(host[2]);
    if (port < 1 || port > 65_535) throw new DatabaseUrlError(`has a port out of range in "${text}"`);
    const address = `${host[1]}:${port}`;
    const auth = userInfo === undefined ? '' : `${userInfo}@`;
    return { address, connectionString: `${scheme}://${auth}${address}${path}${rest}` };
  });
  // One host and nothing to take out: the URL goes to node-postgres exactly as written, as it always did.
  if (hosts.length === 1 && target === null)
    return [{ address: hosts[0]!.address, connectionString: url.trim() }];
  return hosts;
}
