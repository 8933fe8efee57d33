/**
 * The anchoring part of npm run bench:tlog (decision 015): the registry on Hardhat 2.28's in-process EVM,
 * anchored the way the worker does it, once per 1,000-entry batch. Gas is deterministic for given inputs, so
 * these figures are exact for the EVM rules of the chains we name (Cancun); the baseline is a bare transfer,
 * 21,000 gas, the least any transaction costs, measured on the same chain.
 */
import { createPublicClient, createWalletClient, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EvmAnchorRegistry } from '../apps/server/src/anchor/evm-registry';
import { logAnchorRegistryArtifact } from '../apps/server/src/anchor/log-anchor-registry-artifact';
import { inProcessEvm, OTHER_KEY, OWNER_KEY } from '../apps/server/test/support/in-process-evm';

const BATCH_ENTRIES = 1_000;
const BATCHES = 10;
/** Per-anchor gas at which a 1,000-entry batch costs 100 gas per entry: the target. */
const TARGET_GAS_PER_ANCHOR = 100n * BigInt(BATCH_ENTRIES);

export interface AnchoringFigures {
  deployGas: bigint;
  firstAnchorGas: bigint;
  /** Every anchor after the first (the registry's storage is warm from then on). */
  steadyAnchorGas: bigint[];
  calldataBytes: number;
  transferGas: bigint;
  /** Every anchor's Anchored event matched what was sent. */
  recorded: boolean;
}

/** Deploys a registry and anchors BATCHES trees of BATCH_ENTRIES more entries each, with the log's roots. */
export async function measureAnchoring(rootAt: (size: number) => Uint8Array): Promise<AnchoringFigures> {
  const evm = inProcessEvm();
  const client = createPublicClient({ chain: evm.chain, transport: evm.transport, pollingInterval: 50 });
  const options = { ...evm, privateKey: OWNER_KEY, pollingIntervalMs: 50 };
  const contract: Address = await EvmAnchorRegistry.deploy({ ...options, origin: 'hasta.example/log' });
  const deployment = await client.getContractEvents({
    address: contract,
    abi: logAnchorRegistryArtifact.abi,
    eventName: 'OwnershipTransferred',
    fromBlock: 0n,
  });
  const deployReceipt = await client.getTransactionReceipt({ hash: deployment[0]!.transactionHash });

  const registry = new EvmAnchorRegistry({ ...options, contract });
  const gas: bigint[] = [];
  let calldataBytes = 0;
  let recorded = true;
  for (let batch = 1; batch <= BATCHES; batch++) {
    const size = batch * BATCH_ENTRIES;
    const root = rootAt(size);
    const mined = await registry.anchor(root, size);
    gas.push(mined.gasUsed);
    calldataBytes = mined.calldataBytes;
    const expected = `0x${Buffer.from(root).toString('hex')}`;
    if (
      mined.anchored.length !== 1 ||
      mined.anchored[0]!.root !== expected ||
      mined.anchored[0]!.treeSize !== size
    )
      recorded = false;
  }

  const wallet = createWalletClient({
    chain: evm.chain,
    transport: evm.transport,
    account: privateKeyToAccount(OWNER_KEY),
  });
  const transfer = await client.waitForTransactionReceipt({
    hash: await wallet.sendTransaction({ to: privateKeyToAccount(OTHER_KEY).address, value: 1n }),
  });
  return {
    deployGas: deployReceipt.gasUsed,
    firstAnchorGas: gas[0]!,
    steadyAnchorGas: gas.slice(1),
    calldataBytes,
    transferGas: transfer.gasUsed,
    recorded,
  };
}

const format = (n: number | bigint, digits = 0): string =>
  Number(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The section's lines, in the table's columns: figure, value, ratio to the baseline, target. */
export function anchoringTable(figures: AnchoringFigures): string[] {
  const steady = figures.steadyAnchorGas;
  const mean = steady.reduce((sum, g) => sum + g, 0n) / BigInt(steady.length);
  const max = steady.reduce((a, b) => (a > b ? a : b));
  const ratio = (gas: bigint) => `x${(Number(gas) / Number(figures.transferGas)).toFixed(2)} a bare transfer`;
  const row = (name: string, value: string, vs = '', target = '') =>
    `${name.padEnd(36)} ${value.padStart(25)}   ${vs.padEnd(34)} ${target}`;
  // The target holds for every anchor, the first (which pays for fresh storage) included.
  const worst = figures.firstAnchorGas > max ? figures.firstAnchorGas : max;
  const perEntry = (gas: bigint, entries: number) => `${format(Number(gas) / entries, 1)} gas`;
  return [
    '',
    `anchoring: LogAnchorRegistry (solc ${logAnchorRegistryArtifact.compiler}, evm ${logAnchorRegistryArtifact.evmVersion}) on Hardhat 2.28's in-process EVM, ${BATCHES} anchors of ${format(BATCH_ENTRIES)}-entry batches`,
    row('figure', 'value', 'vs a bare transfer (measured)', 'target'),
    row('bare transfer (baseline)', `${format(figures.transferGas)} gas`),
    row('deployment (once)', `${format(figures.deployGas)} gas`, ratio(figures.deployGas)),
    row(
      'first anchor (cold storage)',
      `${format(figures.firstAnchorGas)} gas`,
      ratio(figures.firstAnchorGas),
    ),
    row(
      `anchor, each later one (max of ${steady.length})`,
      `${format(max)} gas`,
      ratio(max),
      `≤ ${format(TARGET_GAS_PER_ANCHOR)} gas ${max <= TARGET_GAS_PER_ANCHOR ? '(met)' : '(MISSED)'}`,
    ),
    row(`anchor, mean of ${steady.length}`, `${format(mean)} gas`, ratio(mean)),
    row(
      `per entry, ${format(BATCH_ENTRIES)}-entry batch, worst`,
      perEntry(worst, BATCH_ENTRIES),
      `later anchors: ${perEntry(max, BATCH_ENTRIES)}`,
      `≤ 100 gas ${Number(worst) / BATCH_ENTRIES <= 100 ? '(met)' : '(MISSED)'}`,
    ),
    row('per entry, 10,000-entry batch', perEntry(max, 10_000)),
    row(
      'anchor calldata',
      `${figures.calldataBytes} bytes`,
      'selector 4 + root 32 + size 32 (ABI word)',
      figures.calldataBytes === 68 ? 'root and size only (met)' : 'root and size only (MISSED)',
    ),
    'transactions (the worker’s rule, tested in apps/server/test/anchoring.test.ts): one per 10 minutes ' +
      '(ANCHOR_INTERVAL_MS) when the log grew, one sooner per 10,000 entries (ANCHOR_MAX_ENTRIES)',
  ];
}
