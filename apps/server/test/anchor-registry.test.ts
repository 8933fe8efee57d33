import { readFileSync } from 'node:fs';
import { ANCHORED_TOPIC, LATEST_SELECTOR, LOG_ID_SELECTOR, registryLogId } from '@hasta/tlog/onchain-check';
import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  parseEventLogs,
  toEventSelector,
  toFunctionSelector,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRegistry, REGISTRY_ARTIFACT_PATH, renderArtifact } from '../src/anchor/compile-registry';
import { EvmAnchorRegistry, logIdOf, RegistryRefusal } from '../src/anchor/evm-registry';
import { logAnchorRegistryArtifact } from '../src/anchor/log-anchor-registry-artifact';
import { inProcessEvm, OTHER_KEY, OWNER_KEY } from './support/in-process-evm';

const ORIGIN = 'hasta.example/log';
const abi = logAnchorRegistryArtifact.abi;
const root = (fill: number) => new Uint8Array(32).fill(fill);
const hexRoot = (fill: number): Hex => `0x${fill.toString(16).padStart(2, '0').repeat(32)}`;

describe('the anchoring registry contract on the in-process EVM', () => {
  const evm = inProcessEvm();
  const client = createPublicClient({ chain: evm.chain, transport: evm.transport });
  const registryFor = (contract: Address, privateKey = OWNER_KEY, chain = evm.chain) =>
    new EvmAnchorRegistry({
      chainName: evm.chainName,
      chain,
      transport: evm.transport,
      privateKey,
      contract,
      pollingIntervalMs: 50,
    });
  const deploy = (origin = ORIGIN) =>
    EvmAnchorRegistry.deploy({
      chainName: evm.chainName,
      chain: evm.chain,
      transport: evm.transport,
      privateKey: OWNER_KEY,
      origin,
      pollingIntervalMs: 50,
    });
  let contract: Address;

  beforeAll(async () => {
    contract = await deploy();
  });

  it('is built from the committed source by the pinned solc: the artifact is current', async () => {
    const compiled = compileRegistry();
    expect(compiled.compiler).toBe('0.8.28+commit.7893614a');
    expect(compiled.evmVersion).toBe('paris');
    expect(await renderArtifact(compiled)).toBe(readFileSync(REGISTRY_ARTIFACT_PATH, 'utf8'));
  }, 60_000);

  it('anchors only growing trees, keeps the latest and emits Anchored(root, treeSize) for each', async () => {
    const registry = registryFor(contract);
    expect(await registry.setupProblems(ORIGIN)).toEqual([]);
    expect(await registry.latest()).toEqual({ root: `0x${'0'.repeat(64)}`, treeSize: 0 });

    const first = await registry.anchor(root(1), 1_000);
    expect(first.status).toBe('success');
    expect(first.anchored).toEqual([{ root: hexRoot(1), treeSize: 1_000 }]);
    const second = await registry.anchor(root(2), 2_000);
    expect(second.anchored).toEqual([{ root: hexRoot(2), treeSize: 2_000 }]);
    expect(await registry.latest()).toEqual({ root: hexRoot(2), treeSize: 2_000 });

    // The event, read from the chain's own receipt: the root in the data, the size as an indexed topic.
    const receipt = await client.getTransactionReceipt({ hash: second.txHash });
    const [event] = parseEventLogs({ abi, eventName: 'Anchored', logs: receipt.logs });
    expect(event?.args).toEqual({ root: hexRoot(2), treeSize: 2_000n });
    expect(event?.topics[1]).toBe(`0x${(2_000).toString(16).padStart(64, '0')}`);

    // Calldata: the selector, the root and the size, nothing else.
    const transaction = await client.getTransaction({ hash: second.txHash });
    expect(second.calldataBytes).toBe(4 + 32 + 32);
    expect(decodeFunctionData({ abi, data: transaction.input })).toEqual({
      functionName: 'anchor',
      args: [hexRoot(2), 2_000n],
    });
    // Target: at most 100 gas per entry at a 1,000-entry batch (the figure itself is in npm run bench:tlog).
    expect(second.gasUsed).toBeLessThanOrEqual(100_000n);

    for (const size of [2_000, 1_999]) {
      const refused = await registry.signAnchor(root(3), size).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RegistryRefusal);
      expect(refused).toMatchObject({ errorName: 'TreeNotGrowing', args: [2_000n, BigInt(size)] });
    }
    expect(await registry.latest()).toEqual({ root: hexRoot(2), treeSize: 2_000 });
  });

  it('lets only its owner anchor, and hands anchoring over on a key rotation', async () => {
    const own = await deploy();
    const registry = registryFor(own);
    const stranger = registryFor(own, OTHER_KEY);
    expect(await stranger.setupProblems(ORIGIN)).toEqual([
      `the registry at ${own} is owned by ${registry.account.address}, not by ANCHOR_PRIVATE_KEY's ${stranger.account.address}`,
    ]);
    await expect(stranger.signAnchor(root(1), 10)).rejects.toMatchObject({
      errorName: 'NotOwner',
      args: [stranger.account.address],
    });
    // Even sent without the simulation, the transaction reverts and records nothing.
    const wallet = createWalletClient({
      chain: evm.chain,
      transport: evm.transport,
      account: privateKeyToAccount(OTHER_KEY),
    });
    const hash = await wallet.writeContract({
      address: own,
      abi,
      functionName: 'anchor',
      args: [hexRoot(1), 10n],
      gas: 100_000n,
    });
    const reverted = await registry.waitForMined(hash, 60_000);
    expect(reverted).toMatchObject({ status: 'reverted', anchored: [] });
    expect((await registry.latest()).treeSize).toBe(0);

    const owner = createWalletClient({
      chain: evm.chain,
      transport: evm.transport,
      account: registry.account,
    });
    await registry.waitForMined(
      await owner.writeContract({
        address: own,
        abi,
        functionName: 'transferOwnership',
        args: [stranger.account.address],
      }),
      60_000,
    );
    expect((await stranger.anchor(root(4), 10)).status).toBe('success');
    await expect(registry.signAnchor(root(5), 20)).rejects.toMatchObject({ errorName: 'NotOwner' });
  });

  it('names what is wrong with a setup: another log, no contract, another chain', async () => {
    expect(await registryFor(contract).setupProblems('other.example/log')).toEqual([
      `the registry at ${contract} anchors another log (logId ${logIdOf(ORIGIN)}, not that of other.example/log)`,
    ]);
    const nowhere = `0x${'ab'.repeat(20)}` as Address;
    expect(await registryFor(nowhere).setupProblems(ORIGIN)).toEqual([
      `no contract at ${nowhere} on ${evm.chainName}`,
    ]);
    expect(await registryFor(contract, OWNER_KEY, polygon).setupProblems(ORIGIN)).toEqual([
      `the RPC serves chain id ${evm.chain.id}, not ${evm.chainName} (137)`,
    ]);
  });

  it('gives hasta-verify the same selectors, event topic and log id as the compiled ABI', () => {
    const item = (name: string) => abi.find((entry) => 'name' in entry && entry.name === name)!;
    expect(ANCHORED_TOPIC).toBe(toEventSelector(item('Anchored') as Parameters<typeof toEventSelector>[0]));
    expect(LATEST_SELECTOR).toBe(
      toFunctionSelector(item('latest') as Parameters<typeof toFunctionSelector>[0]),
    );
    expect(LOG_ID_SELECTOR).toBe(
      toFunctionSelector(item('logId') as Parameters<typeof toFunctionSelector>[0]),
    );
    expect(registryLogId(ORIGIN)).toBe(logIdOf(ORIGIN));
  });
});
