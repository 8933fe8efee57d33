import { z } from 'zod';
import { messages } from './messages';

/** Amounts travel as JSON numbers of rupees (the spec's clients) and come back as decimal strings. */
export const rupeesAmountSchema = z
  .number({ error: messages.amountRequired })
  .refine((value) => value > 0, messages.amountPositive);

/** An optional email or phone as typed; empty is absent. */
export const optionalContact = z
  .string()
  .trim()
  .max(320)
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** The header that makes a money request safe to retry: the same key and body answer the same result. */
export const idempotencyHeaderSchema = z.object({
  'idempotency-key': z.string().trim().min(1).max(200).optional(),
});

// POST /api/transfer (header Idempotency-Key recommended)
export const transferRequestSchema = z
  .object({
    userId: z.string().optional(),
    receiverEmail: optionalContact,
    receiverPhone: optionalContact,
    amount: rupeesAmountSchema,
    transferMethod: z.enum(['phone_email', 'qr_scan']).default('phone_email'),
  })
  .refine((body) => body.receiverEmail !== undefined || body.receiverPhone !== undefined, {
    message: messages.receiverRequired,
    path: ['receiverEmail'],
  });

export const transactionStatusSchema = z.enum(['completed', 'pending', 'voided', 'reversed', 'failed']);

/** A transfer as the person who sent or received it sees it (spec §3 "Transaction record"). */
export const transactionRecordSchema = z.object({
  id: z.string(),
  amount: z.string(),
  amount_paise: z.string(),
  status: transactionStatusSchema,
  created_at: z.string(),
  direction: z.enum(['sent', 'received']),
  /**
   * The payer's email or phone. A palm payment's receiver or store sees it masked ("a•••@d•••",
   * "••••3210"), and so does the payer's address on a reversal of one; the payer and admins see it whole.
   */
  from_user_email: z.string().nullable(),
  to_user_email: z.string().nullable(),
  /** With a masked payer: the initial of their name ("A."), all of it the receiver sees. */
  from_user_name: z.string().optional(),
  blockchain_tx: z.string().nullable(),
  hand_hash: z.string().nullable(),
});
export type TransactionRecord = z.infer<typeof transactionRecordSchema>;

export const transferResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  transaction: transactionRecordSchema,
});

/** Most entries one history page holds (and /api/transaction/history's default page). */
export const HISTORY_PAGE_MAX = 200;
/** The dashboard's newest entries, and the page the history screens ask for at a time. */
export const HISTORY_PAGE_SIZE = 50;

/** A page of a history: its size, and where it starts (the `next` of the page before; none: the newest). */
export const historyPageQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}(\.\d{1,18})?$/, messages.invalidRequest)
    .optional(),
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).optional(),
});

export const transactionHistoryResponseSchema = z.object({
  transactions: z.array(transactionRecordSchema),
  /** The `before` of the next (older) page; null at the end. */
  next: z.string().nullable(),
});

/** A history entry of the dashboard (spec §3 "History entry"). */
export const historyEntrySchema = z.object({
  type: z.enum(['transaction', 'palm_registration', 'palm_manual_scan']),
  created_at: z.string(),
  sender: z.string().nullable(),
  receiver: z.string().nullable(),
  amount: z.string().nullable(),
  status: z.string(),
  similarity: z.number().nullable(),
  txid: z.string().nullable(),
  tx: z.string().nullable(),
  /**
   * A transaction paid with a palm: the palm's hash, as on /api/transaction/history (the payer's History
   * offers "Not me" on it). Absent from servers that do not say.
   */
  hand_hash: z.string().nullable().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const dashboardResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    username: z.string(),
    /** Rupees as a decimal string, e.g. "1234.50". */
    balance: z.string(),
    balance_paise: z.string(),
    palm_hash: z.string().nullable(),
    handinfo: z.object({ left: z.boolean(), right: z.boolean() }),
    /** The newest entries; older ones page by page from GET /api/dashboard/history?before=user_history_next. */
    user_history: z.array(historyEntrySchema),
    user_history_next: z.string().nullable(),
  }),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

// GET /api/dashboard/history?userId&before&limit: the dashboard's History tab, older pages.
export const dashboardHistoryResponseSchema = z.object({
  user_history: z.array(historyEntrySchema),
  next: z.string().nullable(),
});

// POST /api/assignBalance (admin)
export const assignBalanceRequestSchema = z.object({
  userId: z.uuid(messages.userNotFound),
  amount: rupeesAmountSchema,
});
export const assignBalanceResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  balance: z.string(),
});

// GET /api/transaction (admin), DELETE /api/transaction/{txid} (admin)
export const adminTransactionSchema = z.object({
  txid: z.string(),
  kind: z.string(),
  from_user_id: z.string().nullable(),
  to_user_id: z.string().nullable(),
  to_merchant_id: z.string().nullable(),
  amount: z.string(),
  status: transactionStatusSchema,
  created_at: z.string(),
});
export const adminTransactionsResponseSchema = z.object({ transactions: z.array(adminTransactionSchema) });
export const deleteTransactionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  reversal_txid: z.string(),
});
