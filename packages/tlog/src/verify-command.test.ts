import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CheckpointSigner } from './checkpoint';
import { bytesToHex, utf8ToBytes } from './encoding';
import { createEntry, encodeEntry } from './entry';
import { MerkleLog } from './merkle-log';
import { generateNoteKeys } from './note';
import { createReceipt, type Receipt } from './receipt';
import { runVerifyCommand } from './verify-command';

const keys = generateNoteKeys('hasta.example/log', new Uint8Array(32).fill(1));
const otherKeys = generateNoteKeys('hasta.example/log', new Uint8Array(32).fill(2));

function makeReceipt(withKey: boolean, anchored = false): Receipt {
  const log = new MerkleLog();
  const entries = Array.from({ length: 5 }, (_, i) =>
    encodeEntry(
      createEntry({
        serverSecret: new Uint8Array(32).fill(9),
        userId: `user-${i}`,
        type: 'palm.enrolled',
        at: new Date('2025-01-31T09:41:00Z'),
        record: { i },
        salt: new Uint8Array(32).fill(i),
      }),
    ),
  );
  entries.forEach((entry) => log.append(utf8ToBytes(entry)));
  const checkpoint = new CheckpointSigner({ signer: keys.signerKey }).signLog(log);
  return createReceipt({
    origin: 'hasta.example/log',
    index: 3,
    treeSize: 5,
    entry: entries[3]!,
    inclusionProof: log.inclusionProof(3, 5),
    checkpoint,
    anchor: anchored
      ? {
          chain: 'base-sepolia',
          chain_id: 84532,
          contract: `0x${'12'.repeat(20)}`,
          tx_hash: `0x${'ab'.repeat(32)}`,
          block_number: 9,
          tree_size: 5,
          root: `0x${bytesToHex(log.root())}`,
        }
      : null,
    ...(withKey ? { verifierKey: keys.verifierKey } : {}),
  });
}

const files = (receipt: unknown) => (path: string) =>
  path === 'receipt.json'
    ? Promise.resolve(JSON.stringify(receipt))
    : Promise.reject(new Error('no such file'));

describe('hasta-verify', () => {
  it('prints OK and exits 0 for a good receipt and the right key', async () => {
    const result = await runVerifyCommand(
      ['receipt.json', '--key', keys.verifierKey],
      files(makeReceipt(false)),
    );
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toMatch(
      /^OK: entry 3 \(palm\.enrolled, 2025-01-31T09:41:00\.000Z\) is in log hasta\.example\/log/,
    );
  });

  it('fails with the reason and exits 1 for another key', async () => {
    const result = await runVerifyCommand(
      [`--key=${otherKeys.verifierKey}`, 'receipt.json'],
      files(makeReceipt(true)),
    );
    expect(result).toEqual({
      exitCode: 1,
      lines: ['FAIL: checkpoint is not signed by key hasta.example/log'],
    });
  });

  it("uses the receipt's verifier_key when no --key is given, and warns about it", async () => {
    const result = await runVerifyCommand(['receipt.json'], files(makeReceipt(true)));
    expect(result.exitCode).toBe(0);
    expect(result.lines[0]).toMatch(/^warning: using the verifier key written in the receipt/);
    const none = await runVerifyCommand(['receipt.json'], files(makeReceipt(false)));
    expect(none.exitCode).toBe(1);
    expect(none.lines[0]).toBe('FAIL: no verifier key: pass --key <verifier key>');
  });

  it('reports usage errors, unreadable files and an on-chain check that cannot be made', async () => {
    expect((await runVerifyCommand([], files(null))).exitCode).toBe(1);
    expect((await runVerifyCommand(['a', 'b'], files(null))).lines[0]).toBe(
      'FAIL: only one receipt file at a time',
    );
    expect((await runVerifyCommand(['x.json', '--key', 'k'], files(null))).lines[0]).toMatch(
      /^FAIL: cannot read x\.json/,
    );
    const anchored = files(makeReceipt(true, true));
    const without = await runVerifyCommand(['receipt.json'], anchored);
    expect(without.exitCode).toBe(0);
    expect(without.lines.at(-1)).toMatch(/^anchor: to finish, check on base-sepolia \(chain id 84532\)/);
    const unreachable: typeof fetch = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const rpc = await runVerifyCommand(['receipt.json', '--rpc', 'http://127.0.0.1:8545'], anchored, {
      fetch: unreachable,
    });
    expect(rpc.exitCode).toBe(1);
    expect(rpc.lines.slice(-2)).toEqual([
      `warning: checking the registry named in the receipt (0x${'12'.repeat(20)}); compare it with the log's published registry, or pass --contract`,
      'FAIL: on chain: RPC 127.0.0.1:8545: eth_chainId: connect ECONNREFUSED',
    ]);
    expect((await runVerifyCommand(['receipt.json', '--rpc', 'ftp://x'], anchored)).lines[0]).toBe(
      'FAIL: --rpc needs an http(s):// JSON-RPC URL',
    );
    expect(
      (await runVerifyCommand(['receipt.json', '--contract', `0x${'12'.repeat(20)}`], anchored)).lines[0],
    ).toBe('FAIL: --contract goes with --rpc');
    // Asked to check on chain, a receipt without an anchor fails: nothing claims what was not checked.
    const plain = await runVerifyCommand(
      ['receipt.json', '--rpc', 'http://127.0.0.1:8545'],
      files(makeReceipt(true)),
    );
    expect(plain.exitCode).toBe(1);
    expect(plain.lines.at(-1)).toBe('FAIL: --rpc: this receipt has no anchor covering the entry to check');
  });

  it('says plainly when the log is not anchored, or not yet', async () => {
    const stated = (status: 'pending' | 'not-anchored') =>
      files({ ...makeReceipt(true), anchor_status: status });
    const none = await runVerifyCommand(['receipt.json'], stated('not-anchored'));
    expect(none.exitCode).toBe(0);
    expect(none.lines.at(-1)).toBe(
      'anchor: none — this log is not anchored on any public chain; the entry rests on the signed checkpoint only',
    );
    expect((await runVerifyCommand(['receipt.json'], stated('pending'))).lines.at(-1)).toBe(
      'anchor: not yet — the log anchors its checkpoints, but none covers this entry yet; fetch the receipt again later',
    );
    for (const result of [none, await runVerifyCommand(['receipt.json'], stated('pending'))]) {
      expect(result.lines.join('\n')).not.toMatch(/on chain|(?<!not )anchored on/i);
    }
  });

  it('runs as a program through bin/hasta-verify.mjs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hasta-verify-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    writeFileSync(good, JSON.stringify(makeReceipt(true)));
    writeFileSync(bad, JSON.stringify({ ...makeReceipt(true), index: 2 }));
    const bin = new URL('../bin/hasta-verify.mjs', import.meta.url).pathname;
    const run = promisify(execFile);
    const ok = await run(process.execPath, [bin, good, '--key', keys.verifierKey]);
    expect(ok.stdout).toMatch(/^OK: entry 3/);
    await expect(run(process.execPath, [bin, bad, '--key', keys.verifierKey])).rejects.toMatchObject({
      code: 1,
      stdout: 'FAIL: inclusion proof does not lead to the checkpoint root\n',
    });
  }, 60_000);
});
