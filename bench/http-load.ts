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
import http from 'node:http';

export interface LoadRequest {
  path: string;
  token: string;
  body: string;
  idempotencyKey: string;
}

export interface LoadJob {
  port: number;
  mode: 'closed' | 'open';
  concurrency: number;
  count: number;
  rate_per_s: number;
  duration_s: number;
  requests: LoadRequest[];
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
}

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadJob;
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(job.concurrency, 256) });

function send(request: LoadRequest): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: job.port,
        method: 'POST',
        path: request.path,
        agent,
        headers: {
          authorization: `Bearer ${request.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'idempotency-key': request.idempotencyKey,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(request.body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<LoadResult> {
  const latencies: number[] = [];
  const failed: Record<string, number> = {};
  let ok = 0;
  const record = (status: number, latency_ms: number) => {
    latencies.push(latency_ms);
    if (status === 200) ok += 1;
    else failed[String(status)] = (failed[String(status)] ?? 0) + 1;
  };
  const started = performance.now();
  if (job.mode === 'closed') {
    let next = 0;
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (next < job.count) {
          const request = job.requests[next++ % job.requests.length]!;
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
      const request = job.requests[i % job.requests.length]!;
      inFlight.push(send(request).then((status) => record(status, performance.now() - scheduled)));
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
  };
}

const result = await main();
agent.destroy();
process.stdout.write(`${JSON.stringify(result)}\n`);
