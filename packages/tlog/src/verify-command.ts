/**
 * `hasta-verify <receipt.json> --key <verifier key> [--rpc <url>]`: the receipt check behind the CLI, kept
 * free of Node so it can be tested directly. It prints OK or the reason, and the exit code says which.
 */
import { parseVerifierKey } from './note';
import { verifyReceipt, type AnchorOutcome } from './receipt';

export const USAGE = 'usage: hasta-verify <receipt.json> [--key <verifier key>] [--rpc <url>]';

export interface CommandResult {
  exitCode: 0 | 1;
  lines: string[];
}

interface Options {
  file: string;
  key: string | null;
  rpc: string | null;
}

function parseArgs(args: readonly string[]): Options | string {
  let file: string | null = null;
  let key: string | null = null;
  let rpc: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (flag === '--key' || flag === '--rpc') {
      const value = inline ?? args[++i];
      if (value === undefined || value === '') return `${flag} needs a value`;
      if (flag === '--key') key = value;
      else rpc = value;
    } else if (flag?.startsWith('-')) {
      return `unknown option ${flag}`;
    } else if (file === null) {
      file = arg;
    } else {
      return 'only one receipt file at a time';
    }
  }
  if (file === null) return 'no receipt file given';
  return { file, key, rpc };
}

function describeAnchor(anchor: AnchorOutcome): string {
  switch (anchor.kind) {
    case 'none':
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
  if (options.rpc !== null && anchor.kind === 'check-on-chain') {
    // TODO(chain): read the anchoring contract through options.rpc and compare its root for the tree size.
    return {
      exitCode: 1,
      lines: [...lines, 'FAIL: the on-chain check (--rpc) is not implemented yet; check the anchor by hand'],
    };
  }
  return { exitCode: 0, lines };
}
