/**
 * The parts `npm run cluster` and `npm run test:failover` both put together: the PostgreSQL primary and
 * synchronous standby (scripts/pg-cluster.sh), API server processes, HAProxy's configuration, and the
 * starting, waiting for and stopping of long-running children, each in its own process group so a stop
 * reaches everything it started (tsx's node included) and Ctrl-C reaches only the parent.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const REPO = new URL('..', import.meta.url).pathname;
export const PG_CLUSTER = join(REPO, 'scripts/pg-cluster.sh');
/** The command line of one API server process. */
export const SERVER_ARGS = ['--import', 'tsx', 'apps/server/src/main.ts'];

export function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/**
 * Starts the primary and its synchronous standby in `dir` (pg-cluster.sh start) and answers the multi-host
 * DATABASE_URL. `env` is added to the script's (PG_CLUSTER_FSYNC=off for tests).
 */
export function startDatabase(
  dir: string,
  primaryPort: number,
  standbyPort: number,
  env: Record<string, string> = {},
): string {
  const started = spawnSync('bash', [PG_CLUSTER, 'start', dir, String(primaryPort), String(standbyPort)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  if (started.status !== 0) throw new Error('the PostgreSQL primary and standby did not start');
  return started.stdout.trim().split('\n').at(-1)!;
}

/** pg-cluster.sh kill-primary | promote | stop on `dir`; answers whether it succeeded. */
export function databaseCommand(command: 'kill-primary' | 'promote' | 'stop', dir: string): boolean {
  return spawnSync('bash', [PG_CLUSTER, command, dir], { stdio: 'inherit' }).status === 0;
}

/**
 * Starts a long-running child in its own process group; its output lines go to `onLine` (dropped when
 * null), and `onExit` hears when it ends.
 */
export function startChild(
  name: string,
  command: string,
  args: string[],
  options: {
    env?: Record<string, string>;
    onLine?: ((line: string) => void) | null;
    onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
  } = {},
): ChildProcess {
  const onLine =
    options.onLine === undefined ? (line: string) => console.log(`[${name}] ${line}`) : options.onLine;
  const child = spawn(command, args, {
    cwd: REPO,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', onLine ? 'pipe' : 'ignore', onLine ? 'pipe' : 'ignore'],
    detached: true,
  });
  if (onLine) {
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream! }).on('line', onLine);
  }
  if (options.onExit) child.on('exit', options.onExit);
  return child;
}

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Sends `signal` to the child's whole process group (it was started detached), or to it alone. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!isRunning(child) || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** SIGKILL to the child's process group, answered once it has exited. */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (!isRunning(child)) return resolve();
    child.once('exit', () => resolve());
    signalGroup(child, 'SIGKILL');
  });
}

/** SIGTERM to the child's process group, SIGKILL after `timeoutMs`; answered once it has exited. */
export function stopChild(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (!isRunning(child)) return resolve();
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}

/** Polls `url` until it answers 200; throws after `timeoutMs`, or as soon as `abandoned()` says so. */
export async function waitForHealth(
  url: string,
  timeoutMs: number,
  abandoned: () => boolean = () => false,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (abandoned()) throw new Error('stopping');
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/** HAProxy in front of the API servers: round robin, a request that could not reach one goes to the other. */
export function haproxyConfig(options: { host: string; port: number; apiPorts: number[] }): string {
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
  bind ${options.host}:${options.port}
  default_backend api

backend api
  balance roundrobin
  # A server that answers is in, even with 503 while no database host is writable: its answer, with
  # Retry-After, is better than the balancer's own 503.
  option httpchk GET /api/health
  http-check expect rstatus ^(200|503)$
${options.apiPorts.map((port, i) => `  server api${i + 1} 127.0.0.1:${port} check inter 2s fall 2 rise 1`).join('\n')}
`;
}
