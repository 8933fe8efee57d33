/**
 * npm run cluster — Hasta past one machine, on this one: a PostgreSQL 15 primary with a synchronous streaming
 * standby (scripts/pg-cluster.sh, throwaway, in a temp dir), two API servers on their own ports, and HAProxy
 * in front of them on one port, all from Debian's packages (scripts/ensure-cluster-tools.sh installs what is
 * missing). Prints the URLs; Ctrl-C (or SIGTERM) stops everything, in order, and removes the temp dir.
 *
 * The first API server migrates and seeds the demo data (SEED_DEMO=1); the second starts once the first is
 * healthy, with SEED_DEMO=0, and reads the keys the first kept in the database. Both share COOKIE_SECRET.
 *
 * Settings: CLUSTER_PORT (8080): the load balancer; the API servers take the next two ports and PostgreSQL
 * the two after (primary, standby). CLUSTER_HOST (127.0.0.1): where the load balancer listens.
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  databaseCommand,
  haproxyConfig,
  REPO,
  run,
  SERVER_ARGS,
  signalGroup,
  startChild,
  startDatabase,
  stopChild,
  waitForHealth as waitForHealthWithin,
} from './cluster-parts';

const HEALTH_TIMEOUT_MS = 120_000;
/** How long a server may take to stop on SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 10_000;

const basePort = Number(process.env.CLUSTER_PORT ?? '8080');
if (!Number.isInteger(basePort) || basePort < 1024 || basePort > 65_530) {
  console.error('CLUSTER_PORT must be a port number from 1024 to 65530');
  process.exit(2);
}
const host = process.env.CLUSTER_HOST ?? '127.0.0.1';
const ports = {
  balancer: basePort,
  api: [basePort + 1, basePort + 2],
  primary: basePort + 3,
  standby: basePort + 4,
};

const children: Array<{ name: string; child: ChildProcess }> = [];
let dir: string | undefined;
let databaseStarted = false;
let stopping = false;

/** Starts a long-running child in its own process group (Ctrl-C reaches us, and we stop it in order). */
function start(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): ChildProcess {
  const child = startChild(name, command, args, {
    env,
    onExit: (code, signal) => {
      if (!stopping) {
        console.error(`[${name}] exited (${signal ?? `code ${code}`}); stopping the cluster`);
        void shutdown(1);
      }
    },
  });
  children.push({ name, child });
  return child;
}

const waitForHealth = (url: string) => waitForHealthWithin(url, HEALTH_TIMEOUT_MS, () => stopping);

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping: load balancer, API servers, then PostgreSQL...');
  // The load balancer first, so no new request reaches a server on its way out.
  for (const { child } of [...children].reverse()) await stopChild(child, STOP_TIMEOUT_MS);
  stopDatabase();
  console.log('Stopped; nothing of the cluster is left running.');
  process.exit(code);
}

function stopDatabase(): void {
  if (dir === undefined) return;
  if (databaseStarted) databaseCommand('stop', dir);
  rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

async function main(): Promise<void> {
  run('bash', [join(REPO, 'scripts/ensure-cluster-tools.sh')]);
  if (!existsSync(join(REPO, 'apps/web/dist/index.html'))) {
    console.log('Building the web app once (npm run build)...');
    run('npm', ['run', 'build']);
  }

  dir = mkdtempSync(join(tmpdir(), 'hasta-cluster-'));
  console.log(`PostgreSQL primary and synchronous standby in ${dir}...`);
  databaseStarted = true;
  const databaseUrl = startDatabase(dir, ports.primary, ports.standby);

  const serverEnv = {
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: `http://${host === '0.0.0.0' ? 'localhost' : host}:${ports.balancer}`,
    TRUST_PROXY: '1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  for (const [i, port] of ports.api.entries()) {
    start(`api-${i + 1}`, process.execPath, SERVER_ARGS, {
      ...serverEnv,
      PORT: String(port),
      // One server seeds the demo people; the second starts once it is up and must not seed again.
      SEED_DEMO: i === 0 ? '1' : '0',
    });
    await waitForHealth(`http://127.0.0.1:${port}/api/health`);
  }

  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig({ host, port: ports.balancer, apiPorts: ports.api }));
  start('haproxy', process.env.HAPROXY ?? 'haproxy', ['-f', config, '-db']);
  const origin = serverEnv.PUBLIC_URL;
  await waitForHealth(`${origin}/api/health`);

  console.log(`
Hasta cluster is running:
  open                 ${origin}  (HAProxy, round robin over the two API servers)
  API server 1         http://127.0.0.1:${ports.api[0]}  (migrated and seeded the demo data)
  API server 2         http://127.0.0.1:${ports.api[1]}
  PostgreSQL primary   127.0.0.1:${ports.primary}  (synchronous_standby_names=hasta_standby, synchronous_commit=on)
  PostgreSQL standby   127.0.0.1:${ports.standby}  (streaming replica over a replication slot)
  DATABASE_URL         ${databaseUrl}
  health               ${origin}/api/health  (which host is the primary)
  codes sent           ${origin}/dev/outbox

Fail the database over (the servers answer 503 with Retry-After meanwhile, then follow the new primary):
  bash scripts/pg-cluster.sh kill-primary ${dir}
  bash scripts/pg-cluster.sh promote ${dir}

Ctrl-C stops everything and removes ${dir}.`);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
// Last resort if this process ends some other way: no server or database is left behind.
process.on('exit', () => {
  for (const { child } of children) signalGroup(child, 'SIGKILL');
  stopDatabase();
});

main().catch((error: unknown) => {
  if (stopping) return;
  console.error(`npm run cluster failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
