import { z } from 'zod';

const base64Hash = z.string().regex(/^[A-Za-z0-9+/]{43}=$/);
const treeSize = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const logKeyResponseSchema = z.object({
  origin: z.string(),
  verifier_key: z.string(),
  /** The registry the log is anchored in (decision 015), to check receipts' anchors against; null: none. */
  anchor: z.object({ chain: z.string(), chain_id: z.number().int(), contract: z.string() }).nullable(),
});

export const inclusionProofQuerySchema = z.object({ index: treeSize, size: treeSize });
export const consistencyProofQuerySchema = z.object({ first: treeSize, second: treeSize });
export const proofResponseSchema = z.object({ proof: z.array(base64Hash) });

export const receiptAnchorSchema = z.object({
  chain: z.string(),
  chain_id: z.number().int(),
  contract: z.string(),
  tx_hash: z.string(),
  block_number: z.number().int(),
  tree_size: z.number().int(),
  root: z.string(),
  consistency_proof: z.array(base64Hash).optional(),
});

/** A receipt (packages/tlog/src/receipt.ts): everything needed to check an entry offline. */
export const receiptSchema = z.object({
  origin: z.string(),
  index: z.number().int().min(0),
  tree_size: z.number().int().min(1),
  entry: z.string(),
  inclusion_proof: z.array(base64Hash),
  checkpoint: z.string(),
  anchor: receiptAnchorSchema.nullable(),
  /** What the log says about anchoring (packages/tlog AnchorStatus): anchored, pending or not-anchored. */
  anchor_status: z.enum(['anchored', 'pending', 'not-anchored']).optional(),
  verifier_key: z.string().optional(),
});
export type ReceiptBody = z.infer<typeof receiptSchema>;

export const receiptParamsSchema = z.object({ id: z.uuid() });
