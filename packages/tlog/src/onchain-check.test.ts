import { describe, expect, it } from 'vitest';
import {
  ANCHORED_TOPIC,
  checkAnchorOnChain,
  LATEST_SELECTOR,
  LOG_ID_SELECTOR,
  registryLogId,
} from './onchain-check';
import type { OnchainCheck } from './receipt';

/*
 * The check's logic against a scripted JSON-RPC endpoint; the same check against a real chain (Hardhat's
 * EVM behind HTTP, with the registry deployed) is in apps/server/test/anchoring.test.ts.
 */
const ORIGIN = 'hasta.example/log';
const CONTRACT = `0x${'12'.repeat(20)}`;
const ROOT = `0x${'ab'.repeat(32)}`;
const TX = `0x${'cd'.repeat(32)}`;
const BLOCK_HASH = `0x${'ef'.repeat(32)}`;
const anchor: OnchainCheck = {
  chain: 'polygonAmoy',
  chain_id: 80002,
  contract: CONTRACT,
  tx_hash: TX,
  block_number: 100,
  tree_size: 1000,
  root: ROOT,
};
const word = (n: number) => n.toString(16).padStart(64, '0');

type Answers = Record<string, unknown>;
function chain(overrides: Answers = {}): Answers {
  return {
    eth_chainId: '0x13882',
    eth_getTransactionReceipt: {
      status: '0x1',
      to: CONTRACT,
      blockNumber: '0x64',
      blockHash: BLOCK_HASH,
      logs: [{ address: CONTRACT, topics: [ANCHORED_TOPIC, `0x${word(1000)}`], data: ROOT }],
    },
    eth_getBlockByNumber: { hash: BLOCK_HASH },
    [`eth_call ${LOG_ID_SELECTOR}`]: registryLogId(ORIGIN),
    [`eth_call ${LATEST_SELECTOR}`]: `0x${'99'.repeat(32)}${word(1500)}`,
    eth_blockNumber: '0x69',
    ...overrides,
  };
}

function endpoint(answers: Answers, seen: string[] = []): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    const request = JSON.parse(String(init.body)) as { id: number; method: string; params: unknown[] };
    const key =
      request.method === 'eth_call'
        ? `eth_call ${(request.params[0] as { data: string }).data}`
        : request.method;
    seen.push(key);
    const answer = answers[key];
    if (answer instanceof Response) return answer;
    const body =
      answer instanceof Error
        ? { jsonrpc: '2.0', id: request.id, error: { code: -32000, message: answer.message } }
        : { jsonrpc: '2.0', id: request.id, result: answer ?? null };
    return new Response(JSON.stringify(body));
  }) as typeof fetch;
}

const check = (answers: Answers, changed: Partial<OnchainCheck> = {}) =>
  checkAnchorOnChain(
    { ...anchor, ...changed },
    { rpcUrl: 'https://rpc.example/key123', origin: ORIGIN, fetch: endpoint(answers) },
  );
const reason = async (answers: Answers, changed: Partial<OnchainCheck> = {}) => {
  const result = await check(answers, changed);
  return result.ok ? 'ok' : result.reason;
};

describe('checkAnchorOnChain', () => {
  it('accepts an anchor the chain recorded, and counts its confirmations', async () => {
    const seen: string[] = [];
    const result = await checkAnchorOnChain(anchor, {
      rpcUrl: 'http://x',
      origin: ORIGIN,
      fetch: endpoint(chain(), seen),
    });
    expect(result).toEqual({
      ok: true,
      value: { block_number: 100, confirmations: 6, latest_tree_size: 1500 },
    });
    expect(seen).toEqual([
      'eth_chainId',
      'eth_getTransactionReceipt',
      'eth_getBlockByNumber',
      `eth_call ${LOG_ID_SELECTOR}`,
      `eth_call ${LATEST_SELECTOR}`,
      'eth_blockNumber',
    ]);
    // The registry still at the anchored size: its root must be the anchored one.
    const same = chain({ [`eth_call ${LATEST_SELECTOR}`]: `${ROOT}${word(1000)}` });
    expect(await reason(same)).toBe('ok');
  });

  it('refuses what the chain did not record, naming it', async () => {
    const receipt = chain().eth_getTransactionReceipt as Record<string, unknown>;
    const withLog = (log: Record<string, unknown>) =>
      chain({ eth_getTransactionReceipt: { ...receipt, logs: [log] } });
    const event = { address: CONTRACT, topics: [ANCHORED_TOPIC, `0x${word(1000)}`], data: ROOT };

    expect(await reason(chain({ eth_chainId: '0x89' }))).toBe(
      'the RPC serves chain id 137, the anchor is on polygonAmoy (80002)',
    );
    expect(await reason(chain({ eth_getTransactionReceipt: null }))).toBe(
      `transaction ${TX} is not on chain 80002 (not mined, or dropped)`,
    );
    expect(await reason(chain({ eth_getTransactionReceipt: { ...receipt, status: '0x0' } }))).toBe(
      `transaction ${TX} failed on chain`,
    );
    expect(
      await reason(chain({ eth_getTransactionReceipt: { ...receipt, to: `0x${'34'.repeat(20)}` } })),
    ).toBe(`transaction ${TX} did not call the registry ${CONTRACT}`);
    expect(await reason(chain(), { block_number: 99 })).toBe(`transaction ${TX} is in block 100, not 99`);
    const notRecorded = `transaction ${TX} did not record root ${ROOT} for tree size 1000`;
    expect(await reason(withLog({ ...event, data: `0x${'00'.repeat(32)}` }))).toBe(notRecorded);
    expect(await reason(withLog({ ...event, topics: [ANCHORED_TOPIC, `0x${word(999)}`] }))).toBe(notRecorded);
    expect(await reason(withLog({ ...event, address: `0x${'34'.repeat(20)}` }))).toBe(notRecorded);
    expect(await reason(withLog({ ...event, topics: [`0x${'00'.repeat(32)}`, `0x${word(1000)}`] }))).toBe(
      notRecorded,
    );
    expect(await reason(chain({ eth_getBlockByNumber: { hash: `0x${'00'.repeat(32)}` } }))).toBe(
      'block 100 on chain is not the one holding the transaction (reorganised?)',
    );
    expect(await reason(chain({ [`eth_call ${LOG_ID_SELECTOR}`]: registryLogId('other.example/log') }))).toBe(
      `the registry ${CONTRACT} was not deployed for log ${ORIGIN}`,
    );
    expect(await reason(chain({ [`eth_call ${LATEST_SELECTOR}`]: `${ROOT}${word(999)}` }))).toBe(
      'the registry now holds tree size 999, below the anchored 1000',
    );
    expect(
      await reason(chain({ [`eth_call ${LATEST_SELECTOR}`]: `0x${'77'.repeat(32)}${word(1000)}` })),
    ).toBe('the registry holds another root for tree size 1000');
  });

  it('reports an endpoint that fails, without printing its URL (it may hold an API key)', async () => {
    expect(await reason(chain({ eth_chainId: new Response('no', { status: 503 }) }))).toBe(
      'RPC rpc.example: eth_chainId: HTTP 503',
    );
    expect(await reason(chain({ eth_getTransactionReceipt: new Error('header not found') }))).toBe(
      'RPC rpc.example: eth_getTransactionReceipt: header not found',
    );
    expect(await reason(chain({ eth_blockNumber: new Response('<html>') }))).toBe(
      'RPC rpc.example: eth_blockNumber: the answer is not JSON',
    );
  });

  it('computes the registry log id as keccak256 of the origin', () => {
    // keccak256("") is the well-known c5d2…a470.
    expect(registryLogId('')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });
});
