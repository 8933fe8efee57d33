import { bytesToBase64 } from '@hasta/tlog/encoding';
import { AppError } from '../lib/app-error';
import type { TransparencyLog } from './transparency-log';

async function latestSize(log: TransparencyLog): Promise<number> {
  return (await log.latestCheckpoint())?.size ?? 0;
}

/** Inclusion proof of entry `index` in the tree of `size` entries; only trees a checkpoint has signed. */
export async function readInclusionProof(
  log: TransparencyLog,
  input: { index: number; size: number },
): Promise<string[]> {
  const { index, size } = input;
  if (size > (await latestSize(log)) || index >= size) throw AppError.of('BAD_REQUEST', 'logProofOutOfRange');
  return (await log.inclusionProof(index, size)).map(bytesToBase64);
}

/** Consistency proof from the tree of `first` entries to the tree of `second`, both signed already. */
export async function readConsistencyProof(
  log: TransparencyLog,
  input: { first: number; second: number },
): Promise<string[]> {
  const { first, second } = input;
  if (second > (await latestSize(log)) || first > second)
    throw AppError.of('BAD_REQUEST', 'logProofOutOfRange');
  return (await log.consistencyProof(first, second)).map(bytesToBase64);
}
