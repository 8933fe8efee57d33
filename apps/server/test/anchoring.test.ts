import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateNoteKeys } from '@hasta/tlog/note';
import { verifyReceipt, type Receipt } from '@hasta/tlog/receipt';
import { runVerifyCommand } from '@hasta/tlog/verify-command';
import { readTextFile } from '@hasta/tlog/read-text-node';
import { sql } from 'kysely';
import { createWalletClient, toHex, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorWorker, type AnchorLogger } from '../src/anchor/anchor-worker';
import { createAnchorWorker } from '../src/anchor/anchoring';
import { EvmAnchorRegistry } from '../src/anchor/evm-registry';
import { logAnchorRegistryArtifact } from '../src/anchor/log-anchor-registry-artifact';
import { SYSTEM_ACCOUNT_ID } from '../src/ledger/ledger';
import { bearer, registerUser, uniquePhone } from './support/auth-helpers';
import { inProcessEvm, OWNER_KEY, serveJsonRpc } from './support/in-process-evm';
import { buildTestApp, testDatabaseKind, testEnv, type TestApp } from './support/test-app';

const ORIGIN = 'hasta.test/log';
const LOG_KEYS = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(5));
const LOG_ENV = {
  LOG_SIGNING_KEY: LOG_KEYS.signerKey,
  LOG_SECRET: 'a-log-secret-for-the-anchoring-tests',
  LOG_SEQUENCE_INTERVAL_MS: '0',
  RATE_LIMIT_PER_MINUTE: '30000',
};
const MINUTE_MS = 60_000;
const HASTA_VERIFY = join(
  dirname(createRequire(import.meta.url).resolve('@hasta/tlog/receipt')),
  '../bin/hasta-verify.mjs',
);

describe(`anchoring the log on the in-process EVM, on ${testDatabaseKind}`, () => {
  const evm = inProcessEvm();
  let rpc: { url: string; close(): Promise<void> };
  const deploy = (origin = ORIGIN) =>
    EvmAnchorRegistry.deploy({ ...evm, privateKey: OWNER_KEY, origin, pollingIntervalMs: 50 });
  const registryAt = (contract: Address) =>
    new EvmAnchorRegistry({ ...evm, privateKey: OWNER_KEY, contract, pollingIntervalMs: 50 });
  const rpcRequest = (method: string, params: unknown[] = []) => evm.provider.request({ method, params });

  beforeAll(async () => {
    rpc = await serveJsonRpc(evm.provider);
  });
  afterAll(async () => {
    await rpc.close();
  });

  /** Log events without a person behind them, appended and signed at once. */
  async function addEntries(test: TestApp, count: number): Promise<number> {
    await sql`
      INSERT INTO tlog_outbox (type, ref_id)
      SELECT 'consent.granted', gen_random_uuid() FROM generate_series(1, ${count}::int)`.execute(
      test.database.db,
    );
    await test.app.transparencyLog.flush();
    return (await test.app.transparencyLog.latestCheckpoint())!.size;
  }

  function recordingLogger(): AnchorLogger & { alarms: string[] } {
    const alarms: string[] = [];
    return {
      alarms,
      info: () => undefined,
      warn: () => undefined,
      error: (_details, message) => alarms.push(message),
    };
  }

  /** A worker with its own clock, as after a restart when built again. */
  function workerFor(test: TestApp, contract: Address, clock: { now: Date }, logger = recordingLogger()) {
    return new AnchorWorker(test.database.db, registryAt(contract), {
      origin: ORIGIN,
      intervalMs: 10 * MINUTE_MS,
      maxEntries: 10_000,
      minedTimeoutMs: 1_000,
      logger,
      now: () => clock.now,
    });
  }

  const anchorRows = async (test: TestApp, contract: string) =>
    (
      await test.database.db
        .selectFrom('tlog_anchors')
        .select(['tree_size', 'status', 'tx_hash', 'raw_tx'])
        .where('contract', '=', contract)
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, tree_size: Number(row.tree_size) }));

  describe('a server with ANCHOR=evm', () => {
    let test: TestApp;
    let contract: Address;
    let anchoredReceipt: Receipt | undefined;

    beforeAll(async () => {
      contract = await deploy();
      test = await buildTestApp({
        env: {
          ...LOG_ENV,
          ANCHOR: 'evm',
          ANCHOR_CHAIN: 'polygonAmoy',
          ANCHOR_RPC_URL: rpc.url,
          ANCHOR_PRIVATE_KEY: OWNER_KEY,
          ANCHOR_CONTRACT: contract,
          ANCHOR_CHECK_INTERVAL_MS: '0',
        },
      });
    });
    afterAll(async () => {
      await test?.close();
    });

    async function paidPerson() {
      const registered = await registerUser(test.app, test.database, { phone: uniquePhone() });
      const account = await test.app.ledger.ensureUserAccount(registered.user.id);
      const payment = await test.app.ledger.transfer({
        id: randomUUID(),
        debitAccountId: SYSTEM_ACCOUNT_ID,
        creditAccountId: account,
        amountPaise: 10_000n,
        kind: 'issuance',
      });
      return { token: registered.token, paymentId: payment.id };
    }
    async function receipt(id: string, token: string): Promise<Receipt> {
      const res = await test.app.inject({
        method: 'GET',
        url: `/api/receipts/${id}`,
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(200);
      return res.json() as Receipt;
    }

    it('anchors the latest checkpoint; receipts carry the anchor, tied to their checkpoint and found on chain', async () => {
      const asha = await paidPerson();
      await test.app.transparencyLog.flush();

      // The log publishes its registry beside its key, for verifiers to pin (hasta-verify --contract).
      const published = await test.app.inject({ method: 'GET', url: '/api/log/key' });
      expect(published.json()).toEqual({
        origin: ORIGIN,
        verifier_key: LOG_KEYS.verifierKey,
        anchor: { chain: 'polygonAmoy', chain_id: 80002, contract },
      });

      // Anchoring is on but nothing is anchored yet: the receipt says so, and claims nothing on chain.
      const early = await receipt(asha.paymentId, asha.token);
      expect(early).toMatchObject({ anchor: null, anchor_status: 'pending' });
      const earlyCheck = verifyReceipt(early, LOG_KEYS.verifierKey);
      expect(earlyCheck.ok && earlyCheck.anchor).toEqual({ kind: 'none', status: 'pending' });

      const round = await test.app.anchorWorker!.runOnce();
      const size = (await test.app.transparencyLog.latestCheckpoint())!.size;
      expect(round).toMatchObject({ kind: 'anchored', tree_size: size });
      if (round.kind !== 'anchored') return;
      expect(round.gas_used).toBeLessThanOrEqual(100_000n);

      const anchored = await receipt(asha.paymentId, asha.token);
      expect(anchored.anchor_status).toBe('anchored');
      expect(anchored.anchor).toEqual({
        chain: 'polygonAmoy',
        chain_id: 80002,
        contract,
        tx_hash: round.tx_hash,
        block_number: round.block_number,
        tree_size: size,
        root: `0x${Buffer.from((await test.app.transparencyLog.latestCheckpoint())!.root).toString('hex')}`,
      });
      const checked = verifyReceipt(anchored, LOG_KEYS.verifierKey);
      expect(checked.ok && checked.anchor).toMatchObject({ kind: 'check-on-chain', tree_size: size });

      // The log grows: the receipt's checkpoint moves on, its anchor stays the first one holding the entry,
      // bound to the newer checkpoint by a consistency proof.
      const ravi = await paidPerson();
      await addEntries(test, 4);
      const later = await receipt(asha.paymentId, asha.token);
      expect(later.tree_size).toBe(size + 5);
      expect(later.anchor).toMatchObject({ tree_size: size, tx_hash: round.tx_hash });
      expect(later.anchor?.consistency_proof?.length).toBeGreaterThan(0);
      expect(verifyReceipt(later, LOG_KEYS.verifierKey).ok).toBe(true);
      // Ravi's payment came after the anchor: his receipt waits for the next one.
      expect(await receipt(ravi.paymentId, ravi.token)).toMatchObject({
        anchor: null,
        anchor_status: 'pending',
      });

      // hasta-verify --rpc checks the anchor on chain over JSON-RPC.
      const dir = mkdtempSync(join(tmpdir(), 'hasta-anchor-'));
      const file = join(dir, 'receipt.json');
      writeFileSync(file, JSON.stringify(later));
      anchoredReceipt = later;
      const result = await runVerifyCommand(
        [file, '--key', LOG_KEYS.verifierKey, '--rpc', rpc.url, '--contract', contract],
        readTextFile,
      );
      expect(result.exitCode).toBe(0);
      expect(result.lines.at(-1)).toBe(
        `OK: on chain 80002, registry ${contract} recorded root ${later.anchor!.root} for tree size ${size} ` +
          `in transaction ${round.tx_hash} (block ${round.block_number}, 1 confirmation; registry now at tree size ${size})`,
      );
      // The same through the program itself, as `npx hasta-verify receipt.json --rpc <url>` runs it.
      const program = await promisify(execFile)(process.execPath, [HASTA_VERIFY, file, '--rpc', rpc.url]);
      expect(program.stdout).toMatch(/^warning: using the verifier key written in the receipt/);
      expect(program.stdout).toMatch(/\nwarning: checking the registry named in the receipt/);
      expect(program.stdout).toMatch(/\nOK: on chain 80002, registry 0x[0-9a-f]{40} recorded root/);
    }, 60_000);

    it('hasta-verify --rpc fails on anything the chain did not record', async () => {
      const good = anchoredReceipt!;
      const check = async (changed: Receipt, extra: string[] = []) => {
        const result = await runVerifyCommand(
          ['receipt.json', '--key', LOG_KEYS.verifierKey, '--rpc', rpc.url, ...extra],
          (path) =>
            path === 'receipt.json'
              ? Promise.resolve(JSON.stringify(changed))
              : Promise.reject(new Error('no such file')),
        );
        expect(result.exitCode).toBe(1);
        return result.lines.at(-1);
      };
      const anchor = good.anchor!;
      // Within the interval, the server's worker waits.
      await paidPerson();
      await test.app.transparencyLog.flush();
      expect(await test.app.anchorWorker!.runOnce()).toEqual({ kind: 'idle', reason: 'not-due' });
      // Another sender with the key anchors the latest checkpoint: a real transaction to the registry, but
      // not the one that recorded the receipt's anchor.
      const latest = (await test.app.transparencyLog.latestCheckpoint())!;
      const other = await registryAt(contract).anchor(latest.root, latest.size);
      expect(await check({ ...good, anchor: { ...anchor, tx_hash: other.txHash } })).toBe(
        `FAIL: on chain: transaction ${other.txHash} is in block ${other.blockNumber}, not ${anchor.block_number}`,
      );
      expect(
        await check({
          ...good,
          anchor: { ...anchor, tx_hash: other.txHash, block_number: other.blockNumber },
        }),
      ).toBe(
        `FAIL: on chain: transaction ${other.txHash} did not record root ${anchor.root} for tree size ${anchor.tree_size}`,
      );
      // The worker takes that anchor for what it is, the log's own tree: no alarm, nothing to send.
      expect(await test.app.anchorWorker!.runOnce()).toEqual({ kind: 'idle', reason: 'nothing-new' });
      expect(test.app.anchorWorker!.halted).toBeNull();
      expect(await check({ ...good, anchor: { ...anchor, tx_hash: `0x${'ab'.repeat(32)}` } })).toBe(
        `FAIL: on chain: transaction 0x${'ab'.repeat(32)} is not on chain 80002 (not mined, or dropped)`,
      );
      expect(await check({ ...good, anchor: { ...anchor, chain: 'polygon', chain_id: 137 } })).toBe(
        'FAIL: on chain: the RPC serves chain id 80002, the anchor is on polygon (137)',
      );
      expect(await check(good, ['--contract', `0x${'cd'.repeat(20)}`])).toBe(
        `FAIL: the anchor is in registry ${contract}, not in 0x${'cd'.repeat(20)}`,
      );
      expect(await check({ ...good, anchor: null, anchor_status: 'pending' })).toBe(
        'FAIL: --rpc: this receipt has no anchor covering the entry to check',
      );
    }, 60_000);

    it('npm run anchor:deploy deploys a registry for this log, owned by the configured key', async () => {
      const cli = fileURLToPath(new URL('../src/anchor/deploy-cli.ts', import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli], {
        env: {
          ...process.env,
          ...LOG_ENV,
          NODE_ENV: 'test',
          DATA_DIR: 'memory://',
          ANCHOR_CHAIN: 'polygonAmoy',
          ANCHOR_RPC_URL: rpc.url,
          ANCHOR_PRIVATE_KEY: OWNER_KEY,
        },
      });
      const deployed = /ANCHOR_CONTRACT=(0x[0-9a-f]{40})/.exec(stdout)?.[1] as Address | undefined;
      expect(stdout).toMatch(
        /^LogAnchorRegistry for log hasta\.test\/log deployed on polygonAmoy \(chain id 80002\)\./,
      );
      expect(deployed).toBeDefined();
      expect(await registryAt(deployed!).setupProblems(ORIGIN)).toEqual([]);
    }, 60_000);

    it('refuses to start on a registry of another log, and says why', async () => {
      const foreign = await deploy('other.example/log');
      const env = testEnv({
        ...LOG_ENV,
        ANCHOR: 'evm',
        ANCHOR_RPC_URL: rpc.url,
        ANCHOR_PRIVATE_KEY: OWNER_KEY,
        ANCHOR_CONTRACT: foreign,
      });
      await expect(
        createAnchorWorker({ env, db: test.database.db, origin: ORIGIN, logger: recordingLogger() }),
      ).rejects.toThrow(`ANCHOR=evm is misconfigured: the registry at ${foreign} anchors another log`);
    });
  });

  describe('the worker', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await buildTestApp({ env: LOG_ENV });
    });
    afterAll(async () => {
      await test?.close();
    });

    it('anchors at most once per interval, and early once 10,000 entries arrived', async () => {
      const contract = await deploy();
      const clock = { now: new Date('2030-01-01T00:00:00Z') };
      const worker = workerFor(test, contract, clock);
      const at = (minutes: number) => (clock.now = new Date(Date.UTC(2030, 0, 1, 0, minutes)));

      expect(await worker.runOnce()).toEqual({ kind: 'idle', reason: 'no-checkpoint' });
      expect(await addEntries(test, 3)).toBe(3);
      expect(await worker.runOnce()).toMatchObject({ kind: 'anchored', tree_size: 3 });
      expect(await worker.runOnce()).toEqual({ kind: 'idle', reason: 'nothing-new' });

      await addEntries(test, 2);
      at(1);
      expect(await worker.runOnce()).toEqual({ kind: 'idle', reason: 'not-due' });
      clock.now = new Date(Date.UTC(2030, 0, 1, 0, 10) - 1);
      expect(await worker.runOnce()).toEqual({ kind: 'idle', reason: 'not-due' });
      at(10);
      expect(await worker.runOnce()).toMatchObject({ kind: 'anchored', tree_size: 5 });

      // 9,999 entries a minute later: not yet; the 10,000th brings the anchor forward.
      at(11);
      expect(await addEntries(test, 9_999)).toBe(10_004);
      expect(await worker.runOnce()).toEqual({ kind: 'idle', reason: 'not-due' });
      expect(await addEntries(test, 1)).toBe(10_005);
      expect(await worker.runOnce()).toMatchObject({ kind: 'anchored', tree_size: 10_005 });
      expect(await worker.runOnce()).toEqual({ kind: 'idle', reason: 'nothing-new' });

      // Three transactions in all, each recorded once on chain and here.
      expect((await anchorRows(test, contract)).map((row) => [row.tree_size, row.status])).toEqual([
        [3, 'confirmed'],
        [5, 'confirmed'],
        [10_005, 'confirmed'],
      ]);
      const events = (await rpcRequest('eth_getLogs', [
        { address: contract, fromBlock: '0x0' },
      ])) as unknown[];
      // OwnershipTransferred at deployment, then one Anchored per transaction.
      expect(events).toHaveLength(1 + 3);
    }, 60_000);

    it('keeps a sent transaction across a restart and sends it again until it is mined', async () => {
      const contract = await deploy();
      const clock = { now: new Date('2030-02-01T00:00:00Z') };
      const size = await addEntries(test, 2);
      await rpcRequest('evm_setAutomine', [false]);
      let txHash: string;
      try {
        const first = await workerFor(test, contract, clock).runOnce();
        expect(first).toMatchObject({ kind: 'waiting' });
        if (first.kind !== 'waiting') return;
        txHash = first.tx_hash;
        expect(await anchorRows(test, contract)).toEqual([
          { tree_size: size, status: 'sent', tx_hash: txHash, raw_tx: expect.stringMatching(/^0x/) },
        ]);
        // The node loses it (or the process died before it left): a new worker sends the stored transaction.
        await rpcRequest('hardhat_dropTransaction', [txHash]);
        expect(await rpcRequest('eth_getTransactionByHash', [txHash])).toBeNull();
        const restarted = workerFor(test, contract, clock);
        expect(await restarted.runOnce()).toEqual({ kind: 'waiting', tx_hash: txHash });
        expect(await rpcRequest('eth_getTransactionByHash', [txHash])).not.toBeNull();
        await rpcRequest('evm_mine');
        expect(await restarted.runOnce()).toMatchObject({
          kind: 'anchored',
          tree_size: size,
          tx_hash: txHash,
        });
      } finally {
        await rpcRequest('evm_setAutomine', [true]);
      }
      expect(await anchorRows(test, contract)).toEqual([
        { tree_size: size, status: 'confirmed', tx_hash: txHash, raw_tx: null },
      ]);
      expect(await registryAt(contract).latest()).toMatchObject({ treeSize: size });
      // A settled anchor is never rewritten or removed.
      await expect(
        sql`UPDATE tlog_anchors SET status = 'failed' WHERE tx_hash = ${txHash}`.execute(test.database.db),
      ).rejects.toThrow(/only a sent anchor may be settled/);
      await expect(sql`DELETE FROM tlog_anchors`.execute(test.database.db)).rejects.toThrow(/append-only/);
    }, 60_000);

    it('counts a transaction whose nonce another one took as failed, and adopts what the chain holds', async () => {
      const contract = await deploy();
      const clock = { now: new Date('2030-03-01T00:00:00Z') };
      const size = await addEntries(test, 1);
      const checkpoint = (await test.app.transparencyLog.latestCheckpoint())!;
      await rpcRequest('evm_setAutomine', [false]);
      let lost: string;
      try {
        const first = await workerFor(test, contract, clock).runOnce();
        if (first.kind !== 'waiting') throw new Error(`expected a waiting round, got ${first.kind}`);
        lost = first.tx_hash;
        await rpcRequest('hardhat_dropTransaction', [lost]);
      } finally {
        await rpcRequest('evm_setAutomine', [true]);
      }
      // Another sender with the same key anchors the same checkpoint with that nonce (and its own gas limit,
      // else it would be the very same signed transaction).
      const wallet = createWalletClient({ ...evm, account: privateKeyToAccount(OWNER_KEY) });
      const replacement = await wallet.writeContract({
        address: contract,
        abi: logAnchorRegistryArtifact.abi,
        functionName: 'anchor',
        args: [toHex(checkpoint.root), BigInt(size)],
        gas: 90_000n,
      });
      expect(replacement).not.toBe(lost);
      expect(await registryAt(contract).waitForMined(replacement, 60_000)).toMatchObject({
        status: 'success',
      });
      const logger = recordingLogger();
      const restarted = workerFor(test, contract, clock, logger);
      // The chain holds this log's own tree: no alarm, and nothing to send again.
      expect(await restarted.runOnce()).toEqual({ kind: 'idle', reason: 'nothing-new' });
      expect(await anchorRows(test, contract)).toEqual([
        { tree_size: size, status: 'failed', tx_hash: lost, raw_tx: null },
      ]);
      expect(logger.alarms).toEqual(['anchor failed: its nonce was used by another transaction']);
      expect(await restarted.runOnce()).toEqual({ kind: 'idle', reason: 'nothing-new' });
      expect(restarted.halted).toBeNull();
    }, 60_000);
  });

  describe('the monitor', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await buildTestApp({ env: LOG_ENV });
    });
    afterAll(async () => {
      await test?.close();
    });
    const clock = { now: new Date('2030-04-01T00:00:00Z') };

    it('stops anchoring, loudly, when the chain holds another root for a size of the log', async () => {
      const contract = await deploy();
      const logger = recordingLogger();
      const worker = workerFor(test, contract, clock, logger);
      await addEntries(test, 4);
      expect(await worker.runOnce()).toMatchObject({ kind: 'anchored', tree_size: 4 });
      const size = await addEntries(test, 3);
      // Someone with the key anchors a forked tree of 6 entries.
      await registryAt(contract).anchor(randomBytes(32), 6);

      const reason = 'FORK: the registry holds another root for a size of this log';
      expect(await worker.runOnce()).toEqual({ kind: 'halted', reason });
      expect(logger.alarms).toEqual([`ANCHORING STOPPED: ${reason}`]);
      expect(worker.halted).toBe(reason);
      clock.now = new Date(clock.now.getTime() + 60 * MINUTE_MS);
      expect(await worker.runOnce()).toEqual({ kind: 'halted', reason });
      expect((await registryAt(contract).latest()).treeSize).toBe(6);
      expect(size).toBe(7);
      expect((await anchorRows(test, contract)).map((row) => row.tree_size)).toEqual([4]);
    }, 60_000);

    it('stops anchoring when a new checkpoint does not extend the anchored tree', async () => {
      const contract = await deploy();
      const logger = recordingLogger();
      const worker = workerFor(test, contract, clock, logger);
      const anchored = await addEntries(test, 2);
      expect(await worker.runOnce()).toMatchObject({ kind: 'anchored', tree_size: anchored });
      const latest = await addEntries(test, 10);
      // A checkpoint row between the two, with a root that is not the log's (a rewritten database).
      await test.database.db
        .insertInto('tlog_checkpoints')
        .values({ tree_size: anchored + 5, root: randomBytes(32), note: 'forged' })
        .execute();
      clock.now = new Date(clock.now.getTime() + 60 * MINUTE_MS);

      const round = await worker.runOnce();
      expect(round).toEqual({
        kind: 'halted',
        reason: `FORK: checkpoint ${anchored + 5} is not consistent with the anchored tree: the consistency proof fails`,
      });
      expect(logger.alarms).toHaveLength(1);
      // Nothing was anchored past the fork.
      expect((await registryAt(contract).latest()).treeSize).toBe(anchored);
      expect(latest).toBe(anchored + 10);
    }, 60_000);

    it('stops anchoring on a checkpoint beyond the log, and never anchors one', async () => {
      const contract = await deploy();
      const worker = workerFor(test, contract, clock);
      const size = await addEntries(test, 3);
      clock.now = new Date(clock.now.getTime() + 60 * MINUTE_MS);
      expect(await worker.runOnce()).toMatchObject({ kind: 'anchored', tree_size: size });
      // The newest checkpoint claims an entry the log does not have.
      await test.database.db
        .insertInto('tlog_checkpoints')
        .values({ tree_size: size + 1, root: randomBytes(32), note: 'forged' })
        .execute();
      const round = await worker.runOnce();
      expect(round.kind).toBe('halted');
      expect(round.kind === 'halted' && round.reason).toMatch(
        new RegExp(
          `^FORK: checkpoint ${size + 1} is not consistent with the anchored tree: the log cannot prove it`,
        ),
      );
      // A registry with no anchor yet has nothing to compare with: the worker checks the checkpoint against
      // the log's own subtrees before anchoring it, and refuses.
      const fresh = workerFor(test, await deploy(), clock);
      const refused = await fresh.runOnce();
      expect(refused.kind === 'halted' && refused.reason).toBe(
        `FORK: checkpoint ${size + 1} is not the log's tree`,
      );
    }, 60_000);
  });
});
