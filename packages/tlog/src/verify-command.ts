/**
 * `hasta-verify <receipt.json> --key <verifier key> [--rpc <url> [--contract <address>]]`: the receipt check
 * behind the CLI, kept free of Node so it can be tested directly. It prints OK or the reason, and the exit
 * code says which. With --rpc it also checks the anchor on its chain (onchain-check.ts).
 */
import { parseVerifierKey } from './note';
import { checkAnchorOnChain } from './onchain-check';
import { verifyReceipt, type AnchorOutcome } from './receipt';

export const USAGE =
  'usage: hasta-verify <receipt.json> [--key <verifier key>] [--rpc <url> [--contract <registry address>]]';

export interface CommandResult {
  exitCode: 0 | 1;
  lines: string[];
}

interface Options {
  file: string;
  key: string | null;
  rpc: string | null;
  contract: string | null;
}

function parseArgs(args: readonly string[]): Options | string {
  let file: string | null = null;
  let key: string | null = null;
  let rpc: string | null = null;
  let contract: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (flag === '--key' || flag === '--rpc' || flag === '--contract') {
      const value = inline ?? args[++i];
      if (value === undefined || value === '') return `${flag} needs a value`;
      if (flag === '--key') key = value;
      else if (flag === '--rpc') rpc = value;
      else contract = value;
    } else if (flag?.startsWith('-')) {
      return `unknown option ${flag}`;
    } else if (file === null) {
      file = arg;
    } else {
      return 'only one receipt file at a time';
    }
  }
  if (file === null) return 'no receipt file given';
  if (rpc !== null && !/^https?:\/\//.test(rpc)) return '--rpc needs an http(s):// JSON-RPC URL';
  if (contract !== null && !/^0x[0-9a-fA-F]{40}$/.test(contract)) return '--contract needs a 0x address';
  if (contract !== null && rpc === null) return '--contract goes with --rpc';
  return { file, key, rpc, contract };
}

function describeAnchor(anchor: AnchorOutcome): string {
  switch (anchor.kind) {
    case 'none':
      if (anchor.status === 'not-anchored') {
        return 'anchor: none — this log is not anchored on any public chain; the entry rests on the signed checkpoint only';
      }
      if (anchor.status === 'pending') {
        return 'anchor: not yet — the log anchors its checkpoints, but none covers this entry yet; fetch the receipt again later';
      }
      return 'anchor: none in this receipt';
    case 'before-entry':
      return `anchor: the anchored tree (size ${anchor.tree_size}) predates this entry; nothing to check on chain`;
    case 'check-on-chain':
      return (
        `anchor: to finish, check on ${anchor.chain} (chain id ${anchor.chain_id}) that contract ` +
        `${anchor.contract} recorded root ${anchor.root} for tree size ${anchor.tree_size} ` +
        `(transaction ${anchor.tx_hash}, block ${anchor.block_number})`
      );
  }
}

export async function runVerifyCommand(
  args: readonly string[],
  readText: (path: string) => Promise<string>,
  network: { fetch?: typeof fetch } = {},
): Promise<CommandResult> {
  const options = parseArgs(args);
  if (typeof options === 'string') return { exitCode: 1, lines: [`FAIL: ${options}`, USAGE] };

  let receipt: unknown;
  try {
    receipt = JSON.parse(await readText(options.file));
  } catch (error) {
    return { exitCode: 1, lines: [`FAIL: cannot read ${options.file}: ${(error as Error).message}`] };
  }

  const lines: string[] = [];
  let key = options.key;
  if (key === null) {
    const embedded = (receipt as { verifier_key?: unknown } | null)?.verifier_key;
    if (typeof embedded !== 'string') {
      return { exitCode: 1, lines: ['FAIL: no verifier key: pass --key <verifier key>', USAGE] };
    }
    key = embedded;
    lines.push(
      `warning: using the verifier key written in the receipt (${key}); ` +
        "compare it with the log's published key, or pass --key",
    );
  }
  try {
    parseVerifierKey(key);
  } catch (error) {
    return { exitCode: 1, lines: [...lines, `FAIL: ${(error as Error).message}`] };
  }

  const result = verifyReceipt(receipt, key);
  if (!result.ok) return { exitCode: 1, lines: [...lines, `FAIL: ${result.reason}`] };

  const { entry, checkpoint, anchor } = result;
  const index = (receipt as { index: number }).index;
  lines.push(
    `OK: entry ${index} (${entry.type}, ${entry.time}) is in log ${checkpoint.origin} ` +
      `at tree size ${checkpoint.size}, checkpoint signed by the given key`,
  );
  lines.push(`commitment: ${entry.commitment}`);
  lines.push(describeAnchor(anchor));
  if (options.rpc === null) return { exitCode: 0, lines };

  if (anchor.kind !== 'check-on-chain') {
    return {
      exitCode: 1,
      lines: [...lines, 'FAIL: --rpc: this receipt has no anchor covering the entry to check'],
    };
  }
  if (options.contract === null) {
    lines.push(
      `warning: checking the registry named in the receipt (${anchor.contract}); ` +
        "compare it with the log's published registry, or pass --contract",
    );
  } else if (options.contract.toLowerCase() !== anchor.contract.toLowerCase()) {
    return {
      exitCode: 1,
      lines: [...lines, `FAIL: the anchor is in registry ${anchor.contract}, not in ${options.contract}`],
    };
  }
  const onchain = await checkAnchorOnChain(anchor, {
    rpcUrl: options.rpc,
    origin: checkpoint.origin,
    ...(network.fetch ? { fetch: network.fetch } : {}),
  });
  if (!onchain.ok) return { exitCode: 1, lines: [...lines, `FAIL: on chain: ${onchain.reason}`] };
  lines.push(
    `OK: on chain ${anchor.chain_id}, registry ${anchor.contract} recorded root ${anchor.root} for tree size ` +
      `${anchor.tree_size} in transaction ${anchor.tx_hash} (block ${onchain.value.block_number}, ` +
      `${onchain.value.confirmations} confirmation${onchain.value.confirmations === 1 ? '' : 's'}; ` +
      `registry now at tree size ${onchain.value.latest_tree_size})`,
  );
  return { exitCode: 0, lines };
}
