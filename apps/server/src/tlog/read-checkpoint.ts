import { AppError } from '../lib/app-error';
import type { TransparencyLog } from './transparency-log';

/** The latest signed checkpoint as its signed note; none before the log's first round. */
export async function readCheckpointNote(log: TransparencyLog): Promise<string> {
  const checkpoint = await log.latestCheckpoint();
  if (!checkpoint) throw AppError.of('NOT_FOUND', 'receiptNotReady');
  return checkpoint.note;
}
