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
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const REPO = new URL('..', import.meta.url).pathname;
const PG_CLUSTER = join(REPO, 'scripts/pg-cluster.sh');
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

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/** Starts a long-running child in its own process group (Ctrl-C reaches us, and we stop it in order). */
function start(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): ChildProcess {
  const child = spawn(command, args, {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] exited (${signal ?? `code ${code}`}); stopping the cluster`);
      void shutdown(1);
    }
  });
  children.push({ name, child });
  return child;
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (stopping) throw new Error('stopping');
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping: load balancer, API servers, then PostgreSQL...');
  // The load balancer first, so no new request reaches a server on its way out.
  for (const { child } of [...children].reverse()) await stopChild(child);
  stopDatabase();
  console.log('Stopped; nothing of the cluster is left running.');
  process.exit(code);
}

function stopDatabase(): void {
  if (dir === undefined) return;
  if (databaseStarted) spawnSync('bash', [PG_CLUSTER, 'stop', dir], { stdio: 'inherit' });
  rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

function haproxyConfig(): string {
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # The client's address for the API servers' rate limits (TRUST_PROXY=1 believes this one hop).
  option forwardfor
  # A request that could not reach one server (it died) goes to the other; one that reached it is never sent twice.
  retries 2
  option redispatch

frontend hasta
  bind ${host}:${ports.balancer}
  default_backend api

backend api
  balance roundrobin
  # A server that answers is in, even with 503 while no database host is writable: its answer, with
  # Retry-After, is better than the balancer's own 503.
  option httpchk GET /api/health
  http-check expect rstatus ^(200|503)$
${ports.api.map((port, i) => `  server api${i + 1} 127.0.0.1:${port} check inter 2s fall 2 rise 1`).join('\n')}
`;
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
  const started = spawnSync(
    'bash',
    [PG_CLUSTER, 'start', dir, String(ports.primary), String(ports.standby)],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (started.status !== 0) throw new Error('the PostgreSQL primary and standby did not start');
  const databaseUrl = started.stdout.trim().split('\n').at(-1)!;

  const serverEnv = {
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    COOKIE_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_URL: `http://${host === '0.0.0.0' ? 'localhost' : host}:${ports.balancer}`,
    TRUST_PROXY: '1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  for (const [i, port] of ports.api.entries()) {
    start(`api-${i + 1}`, process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      ...serverEnv,
      PORT: String(port),
      // One server seeds the demo people; the second starts once it is up and must not seed again.
      SEED_DEMO: i === 0 ? '1' : '0',
    });
    await waitForHealth(`http://127.0.0.1:${port}/api/health`);
  }

  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig());
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
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  stopDatabase();
});

main().catch((error: unknown) => {
  if (stopping) return;
  console.error(`npm run cluster failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
