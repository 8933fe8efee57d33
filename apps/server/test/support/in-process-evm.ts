/**
 * An EVM in this process for tests and benchmarks: Hardhat 2.28's network (EDR) through its public entry
 * point, `require('hardhat').network.provider`, under viem's `custom` transport; and, for clients that only
 * speak HTTP (hasta-verify --rpc, the server's ANCHOR_RPC_URL), the same chain behind a local JSON-RPC server.
 * Hardhat reads its configuration from HARDHAT_CONFIG, which this module writes to a temporary folder first,
 * so nothing about Hardhat lives in the repository's root. One chain per process (Hardhat keeps one runtime).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { custom, type Chain, type Hex, type Transport } from 'viem';
import { polygonAmoy } from 'viem/chains';

/**
 * The chain runs with Polygon Amoy's chain id, so the server's own ANCHOR_CHAIN=polygonAmoy path (chain id
 * check included) runs against it unchanged. Cancun is a fork every chain the server names has reached.
 */
export const EVM_CHAIN: Chain = polygonAmoy;
export const EVM_CHAIN_NAME = 'polygonAmoy';
/** Funded test keys: the registry's owner, and somebody else. */
export const OWNER_KEY: Hex = `0x${'11'.repeat(32)}`;
export const OTHER_KEY: Hex = `0x${'22'.repeat(32)}`;
const BALANCE_WEI = (10n ** 24n).toString();
/** Largest JSON-RPC request body the local server reads. */
const MAX_BODY_BYTES = 1_000_000;

export interface Eip1193 {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

export interface InProcessEvm {
  provider: Eip1193;
  transport: Transport;
  chain: Chain;
  chainName: string;
}

let started: InProcessEvm | undefined;

/**
 * An error as Hardhat's own JSON-RPC server answers it (hardhat/internal/hardhat-network/jsonrpc/handler.js):
 * the in-process provider throws reverts without a code, which viem would not decode.
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: { message: string; data?: unknown; txHash?: unknown },
  ) {
    super(message);
  }
}

function asJsonRpcError(error: unknown): JsonRpcError {
  const { code, message, data, transactionHash } = error as {
    code?: unknown;
    message?: unknown;
    data?: { data?: unknown; transactionHash?: unknown } | string;
    transactionHash?: unknown;
  };
  const text = String(message);
  const returnData = typeof data === 'object' && data?.data !== undefined ? data.data : data;
  const txHash = transactionHash ?? (typeof data === 'object' ? data?.transactionHash : undefined);
  return new JsonRpcError(typeof code === 'number' ? code : -32603, text, {
    message: text,
    ...(returnData === undefined ? {} : { data: returnData }),
    ...(txHash === undefined ? {} : { txHash }),
  });
}

export function inProcessEvm(): InProcessEvm {
  if (started) return started;
  const dir = mkdtempSync(join(tmpdir(), 'hasta-hardhat-'));
  const config = join(dir, 'hardhat.config.cjs');
  const network = {
    chainId: EVM_CHAIN.id,
    hardfork: 'cancun',
    loggingEnabled: false,
    // As on a real chain, a reverted transaction is mined with status 0 rather than failing to send.
    throwOnTransactionFailures: false,
    accounts: [OWNER_KEY, OTHER_KEY].map((privateKey) => ({ privateKey, balance: BALANCE_WEI })),
  };
  writeFileSync(config, `module.exports = ${JSON.stringify({ networks: { hardhat: network } })};\n`);
  process.env.HARDHAT_CONFIG = config;
  process.env.HARDHAT_NETWORK = 'hardhat';
  const hre = createRequire(import.meta.url)('hardhat') as { network: { name: string; provider: Eip1193 } };
  if (hre.network.name !== 'hardhat') throw new Error(`Hardhat started network ${hre.network.name}`);
  const provider: Eip1193 = {
    request: (args) =>
      hre.network.provider.request(args).catch((error: unknown) => {
        throw asJsonRpcError(error);
      }),
  };
  started = { provider, transport: custom(provider), chain: EVM_CHAIN, chainName: EVM_CHAIN_NAME };
  return started;
}

/** The chain behind http://127.0.0.1:<port>: one JSON-RPC request (or batch) per POST. */
export async function serveJsonRpc(provider: Eip1193): Promise<{ url: string; close(): Promise<void> }> {
  async function answer(message: unknown): Promise<object> {
    const {
      id = null,
      method,
      params,
    } = (message ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof method !== 'string')
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'no method' } };
    try {
      const result = await provider.request({ method, params: Array.isArray(params) ? params : [] });
      return { jsonrpc: '2.0', id, result: result ?? null };
    } catch (error) {
      const { code, message, data } = asJsonRpcError(error);
      return { jsonrpc: '2.0', id, error: { code, message, data } };
    }
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        response.writeHead(400).end();
        return;
      }
      void (Array.isArray(body) ? Promise.all(body.map(answer)) : answer(body)).then((reply) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
