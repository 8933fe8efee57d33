/**
 * The last step of a receipt's check: that the chain really recorded its anchor (decision 015). Plain
 * JSON-RPC over `fetch` and keccak from noble — no Node, no viem — so the CLI and a browser can both run it.
 * It trusts the RPC endpoint it is given: use a node you run or trust, as you would for any chain read.
 *
 * Checked, for the anchor `verifyReceipt` returned (already tied to the signed checkpoint):
 * - the endpoint serves the anchor's chain id;
 * - the transaction is mined, succeeded, called the registry, and its block is the one on the chain now;
 * - in it, the registry emitted `Anchored(root, treeSize)` with exactly the anchored root and size;
 * - the registry was deployed for this log (`logId()` = keccak256 of the origin);
 * - the registry has not gone back below that size since (`latest()`).
 */
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, utf8ToBytes } from './encoding';
import type { OnchainCheck } from './receipt';
import { fail, ok, type Result } from './result';

const selector = (signature: string): string =>
  `0x${bytesToHex(keccak_256(utf8ToBytes(signature))).slice(0, 8)}`;
/** Topic 0 of the registry's `Anchored(bytes32 root, uint64 indexed treeSize)`. */
export const ANCHORED_TOPIC = `0x${bytesToHex(keccak_256(utf8ToBytes('Anchored(bytes32,uint64)')))}`;
export const LATEST_SELECTOR = selector('latest()');
export const LOG_ID_SELECTOR = selector('logId()');

const DEFAULT_TIMEOUT_MS = 15_000;
/** A registry's answers are a few hundred bytes; anything far larger is not what we asked for. */
const MAX_RESPONSE_CHARS = 1_000_000;

export interface OnchainCheckOptions {
  rpcUrl: string;
  /** The receipt's origin: the registry must have been deployed for this log. */
  origin: string;
  /** Per request. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface OnchainConfirmation {
  block_number: number;
  /** Blocks on top of the anchor's block, counting it. */
  confirmations: number;
  /** The registry's latest anchored size now (at least the anchor's). */
  latest_tree_size: number;
}

/** The registry's logId for a log origin: keccak256 of the origin's UTF-8 bytes. */
export function registryLogId(origin: string): string {
  return `0x${bytesToHex(keccak_256(utf8ToBytes(origin)))}`;
}

const word = (value: number): string => `0x${value.toString(16).padStart(64, '0')}`;
const isHex = (value: unknown): value is string =>
  typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value);

function quantity(value: unknown, what: string): number {
  if (!isHex(value) || value.length < 3 || value.length > 16) throw new Error(`${what} is not a quantity`);
  return Number.parseInt(value.slice(2), 16);
}

class RpcFailure extends Error {}

/** The endpoint's host only: RPC URLs often carry an API key in their path or query. */
function endpointName(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'endpoint';
  }
}

export async function checkAnchorOnChain(
  anchor: OnchainCheck,
  options: OnchainCheckOptions,
): Promise<Result<OnchainConfirmation>> {
  const fetchFn = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let id = 0;
  async function call(method: string, params: unknown[]): Promise<unknown> {
    id += 1;
    let text: string;
    try {
      const response = await fetchFn(options.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new RpcFailure(`${method}: HTTP ${response.status}`);
      text = await response.text();
    } catch (error) {
      if (error instanceof RpcFailure) throw error;
      throw new RpcFailure(`${method}: ${(error as Error).message}`);
    }
    if (text.length > MAX_RESPONSE_CHARS) throw new RpcFailure(`${method}: the answer is too large`);
    let body: { result?: unknown; error?: { message?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new RpcFailure(`${method}: the answer is not JSON`);
    }
    if (body.error) throw new RpcFailure(`${method}: ${String(body.error.message ?? 'error')}`);
    return body.result;
  }

  const contract = anchor.contract.toLowerCase();
  const root = anchor.root.toLowerCase();
  try {
    const chainId = quantity(await call('eth_chainId', []), 'eth_chainId');
    if (chainId !== anchor.chain_id) {
      return fail(
        `the RPC serves chain id ${chainId}, the anchor is on ${anchor.chain} (${anchor.chain_id})`,
      );
    }

    const receipt = (await call('eth_getTransactionReceipt', [anchor.tx_hash])) as {
      status?: unknown;
      to?: unknown;
      blockNumber?: unknown;
      blockHash?: unknown;
      logs?: unknown;
    } | null;
    if (receipt === null || typeof receipt !== 'object') {
      return fail(`transaction ${anchor.tx_hash} is not on chain ${anchor.chain_id} (not mined, or dropped)`);
    }
    if (receipt.status !== '0x1') return fail(`transaction ${anchor.tx_hash} failed on chain`);
    if (typeof receipt.to !== 'string' || receipt.to.toLowerCase() !== contract) {
      return fail(`transaction ${anchor.tx_hash} did not call the registry ${anchor.contract}`);
    }
    const blockNumber = quantity(receipt.blockNumber, 'the receipt block number');
    if (blockNumber !== anchor.block_number) {
      return fail(`transaction ${anchor.tx_hash} is in block ${blockNumber}, not ${anchor.block_number}`);
    }
    const logs = Array.isArray(receipt.logs) ? (receipt.logs as Array<Record<string, unknown>>) : [];
    const recorded = logs.some((log) => {
      const topics = Array.isArray(log.topics) ? (log.topics as unknown[]).map(String) : [];
      return (
        String(log.address).toLowerCase() === contract &&
        topics.length === 2 &&
        topics[0]!.toLowerCase() === ANCHORED_TOPIC &&
        topics[1]!.toLowerCase() === word(anchor.tree_size) &&
        String(log.data).toLowerCase() === root
      );
    });
    if (!recorded) {
      return fail(
        `transaction ${anchor.tx_hash} did not record root ${anchor.root} for tree size ${anchor.tree_size}`,
      );
    }

    const block = (await call('eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, false])) as {
      hash?: unknown;
    } | null;
    if (
      !block ||
      typeof block.hash !== 'string' ||
      block.hash.toLowerCase() !== String(receipt.blockHash).toLowerCase()
    ) {
      return fail(`block ${blockNumber} on chain is not the one holding the transaction (reorganised?)`);
    }

    const logId = await call('eth_call', [{ to: contract, data: LOG_ID_SELECTOR }, 'latest']);
    if (!isHex(logId) || logId.toLowerCase() !== registryLogId(options.origin)) {
      return fail(`the registry ${anchor.contract} was not deployed for log ${options.origin}`);
    }
    const latest = await call('eth_call', [{ to: contract, data: LATEST_SELECTOR }, 'latest']);
    if (!isHex(latest) || latest.length !== 2 + 128)
      return fail(`the registry's latest() answer is malformed`);
    const latestSize = Number.parseInt(latest.slice(2 + 64), 16);
    if (!Number.isSafeInteger(latestSize) || latestSize < anchor.tree_size) {
      return fail(`the registry now holds tree size ${latestSize}, below the anchored ${anchor.tree_size}`);
    }
    if (latestSize === anchor.tree_size && `0x${latest.slice(2, 66).toLowerCase()}` !== root) {
      return fail(`the registry holds another root for tree size ${anchor.tree_size}`);
    }

    const head = quantity(await call('eth_blockNumber', []), 'eth_blockNumber');
    return ok({
      block_number: blockNumber,
      confirmations: head - blockNumber + 1,
      latest_tree_size: latestSize,
    });
  } catch (error) {
    if (error instanceof Error) return fail(`RPC ${endpointName(options.rpcUrl)}: ${error.message}`);
    throw error;
  }
}
