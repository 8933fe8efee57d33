/**
 * The load generator of the HTTP benchmarks, run as its own process so it does not share the server's event
 * loop. It reads one JSON job from the file named by argv[2] and prints one JSON result line.
 *
 * - `closed`: `concurrency` callers each send their next request as soon as the last one answers, `count`
 *   requests in all: the throughput.
 * - `open`: requests start on a fixed schedule (`rate_per_s` for `duration_s`) whatever the answers, and each
 *   latency runs from the scheduled start, so a slow server cannot hide its queue (no coordinated omission).
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

export interface LoadRequest {
  path: string;
  token: string;
  body: string;
  idempotencyKey: string;
}

export interface LoadJob {
  port: number;
  /**
   * When given, requests go to these ports in turn (several API servers behind no balancer): request i to
   * ports[i % ports.length], each port with its own kept-alive connections.
   */
  ports?: number[];
  mode: 'closed' | 'open';
  concurrency: number;
  count: number;
  rate_per_s: number;
  duration_s: number;
  requests: LoadRequest[];
  /** Open runs: requests slower than this are listed with their start (epoch ms), to line up with the server's pauses. */
  slow_ms?: number;
}

export interface SlowRequest {
  /** Scheduled start, milliseconds since the epoch (performance.timeOrigin-based, comparable across processes). */
  at_ms: number;
  latency_ms: number;
}

export interface LoadResult {
  sent: number;
  ok: number;
  failed: Record<string, number>;
  elapsed_ms: number;
  rate_per_s: number;
  latency_ms_p50: number;
  latency_ms_p99: number;
  latency_ms_max: number;
  /** Open runs: how late the generator itself sent a request after its scheduled start (part of its latency). */
  send_lag_ms_p99: number;
  /** When the run started, milliseconds since the epoch. */
  started_at_ms: number;
  slow: SlowRequest[];
}

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadJob;
/** Most connections open at once; beyond it requests wait for a free one (and their latency shows it). */
const MAX_CONNECTIONS = Math.max(job.concurrency, 256);
/** Most bytes one response may take: the transfer answers are well under 2 KiB. */
const MAX_RESPONSE_BYTES = 1 << 20;
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * The requests as bytes, made before the clock starts: on a 2-core machine every microsecond the generator
 * spends is taken from the server, so it writes each request with one call on a kept-alive socket and reads
 * back only the status line and the body's length (node's HTTP client cost it about a quarter of a core at
 * 500 requests/s).
 */
function encode(request: LoadRequest): Buffer {
  const body = Buffer.from(request.body);
  const head =
    `POST ${request.path} HTTP/1.1\r\nHost: 127.0.0.1:${job.port}\r\nAuthorization: Bearer ${request.token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
    `Idempotency-Key: ${request.idempotencyKey}\r\nConnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** One kept-alive connection with at most one request on it. */
class Connection {
  readonly #socket: net.Socket;
  #received: Buffer = Buffer.alloc(0);
  #done: ((status: number) => void) | undefined;
  #closed = false;

  constructor(
    readonly lane: number,
    private readonly onFree: (connection: Connection) => void,
  ) {
    this.#socket = net.connect({ host: '127.0.0.1', port: lanes[lane]!, noDelay: true });
    this.#socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    this.#socket.on('error', () => this.#fail());
    this.#socket.on('close', () => this.#fail());
  }

  send(request: Buffer): Promise<number> {
    return new Promise((resolve) => {
      if (this.#closed) return resolve(0); // the server closed it while it was idle
      this.#done = resolve;
      this.#socket.write(request);
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #onData(chunk: Buffer): void {
    this.#received = this.#received.length === 0 ? chunk : Buffer.concat([this.#received, chunk]);
    const end = this.#received.indexOf(HEADER_END);
    if (end < 0) {
      if (this.#received.length > MAX_RESPONSE_BYTES) this.#fail();
      return;
    }
    const head = this.#received.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.#fail(); // every answer of the API carries its length
    const total = end + HEADER_END.length + Number(length[1]);
    if (this.#received.length < total) return;
    if (this.#received.length > total) return this.#fail(); // one request at a time: nothing may follow
    this.#received = Buffer.alloc(0);
    const done = this.#done;
    this.#done = undefined;
    done?.(status);
    this.onFree(this);
  }

  #fail(): void {
    const done = this.#done;
    this.#done = undefined;
    this.#closed = true;
    this.#socket.destroy();
    done?.(0);
  }
}

/** The ports requests go to in turn, each a lane with its own connections. */
const lanes = job.ports ?? [job.port];
const idle: Connection[][] = lanes.map(() => []);
const waitingForConnection: (() => void)[][] = lanes.map(() => []);
const open = lanes.map(() => 0);
let sent = 0;
const release = (connection: Connection) => {
  const next = waitingForConnection[connection.lane]!.shift();
  idle[connection.lane]!.push(connection);
  next?.();
};

async function send(request: Buffer): Promise<number> {
  const lane = sent++ % lanes.length;
  let connection = idle[lane]!.pop();
  if (!connection && open[lane]! < MAX_CONNECTIONS) {
    open[lane]! += 1;
    connection = new Connection(lane, release);
  }
  while (!connection) {
    await new Promise<void>((resolve) => waitingForConnection[lane]!.push(resolve));
    connection = idle[lane]!.pop();
  }
  const status = await connection.send(request);
  if (status === 0) {
    // A failed connection is dropped, not reused.
    const at = idle[lane]!.indexOf(connection);
    if (at >= 0) idle[lane]!.splice(at, 1);
    open[lane]! -= 1;
  }
  return status;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<LoadResult> {
  const latencies: number[] = [];
  const failed: Record<string, number> = {};
  let ok = 0;
  const slow: SlowRequest[] = [];
  const record = (status: number, latency_ms: number, scheduled?: number) => {
    latencies.push(latency_ms);
    if (scheduled !== undefined && job.slow_ms !== undefined && latency_ms > job.slow_ms)
      slow.push({ at_ms: performance.timeOrigin + scheduled, latency_ms });
    if (status === 200) ok += 1;
    else failed[String(status)] = (failed[String(status)] ?? 0) + 1;
  };
  const encoded = job.requests.map(encode);
  const lags: number[] = [];
  const started = performance.now();
  if (job.mode === 'closed') {
    let next = 0;
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (next < job.count) {
          const request = encoded[next++ % encoded.length]!;
          const t0 = performance.now();
          record(await send(request), performance.now() - t0);
        }
      }),
    );
  } else {
    const total = Math.round(job.rate_per_s * job.duration_s);
    const interval_ms = 1000 / job.rate_per_s;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i += 1) {
      const scheduled = started + i * interval_ms;
      const wait = scheduled - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const request = encoded[i % encoded.length]!;
      lags.push(performance.now() - scheduled);
      inFlight.push(send(request).then((status) => record(status, performance.now() - scheduled, scheduled)));
    }
    await Promise.all(inFlight);
  }
  const elapsed_ms = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    sent: latencies.length,
    ok,
    failed,
    elapsed_ms,
    rate_per_s: (ok / elapsed_ms) * 1000,
    latency_ms_p50: percentile(latencies, 50),
    latency_ms_p99: percentile(latencies, 99),
    latency_ms_max: latencies.at(-1) ?? 0,
    send_lag_ms_p99: percentile(
      lags.sort((a, b) => a - b),
      99,
    ),
    started_at_ms: performance.timeOrigin + started,
    slow,
  };
}

const result = await main();
for (const connection of idle.flat()) connection.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
