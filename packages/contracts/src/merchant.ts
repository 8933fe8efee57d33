import { z } from 'zod';
import { rupeesAmountSchema } from './wallet';
import { messages } from './messages';

export const merchantSchema = z.object({
  id: z.string(),
  store_name: z.string(),
  owner_user_id: z.string(),
  contact_email: z.string().nullable(),
  contact_phone: z.string().nullable(),
  created_at: z.string(),
});

// POST /api/merchants (admin): approve a vendor registration into a merchant account
export const approveVendorRequestSchema = z.object({ vendorRegistrationId: z.uuid(messages.invalidRequest) });
export const approveVendorResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  merchant: merchantSchema,
});
export const merchantListResponseSchema = z.object({ merchants: z.array(merchantSchema) });

// GET /api/merchant/summary (spec §3 "Merchant summary", computed from the ledger)
export const merchantSummarySchema = z.object({
  store_name: z.string(),
  balance: z.string(),
  /** The balance less what pending withdrawals hold: what a new withdrawal can take. */
  available_balance: z.string(),
  total_sales: z.string(),
  total_transactions: z.number().int(),
  average_transaction: z.string(),
  success_rate: z.number(),
  /** Settled withdrawals only: the money that reached the bank. */
  total_withdrawals: z.string(),
  /** Withdrawals asked for and not yet settled or rejected: how many, and the amount they hold. */
  pending_withdrawal_count: z.number().int(),
  pending_withdrawals: z.string(),
  total_customers: z.number().int(),
  total_qr_codes_generated: z.number().int(),
  /** Scans of the store's codes by signed-in payers. */
  total_qr_scans: z.number().int(),
  total_palm_scans: z.number().int(),
});

export const merchantPaymentSchema = z.object({
  txid: z.string(),
  amount: z.string(),
  status: z.string(),
  created_at: z.string(),
  /** Who paid: a palm payer masked ("a•••@d•••", "••••3210"), a Send Money or QR payer as they are. */
  customer: z.string().nullable(),
  /** With a masked palm payer: the initial of their name ("A."). */
  customer_name: z.string().optional(),
});
export const merchantPaymentsResponseSchema = z.object({ payments: z.array(merchantPaymentSchema) });

// Settings
export const merchantSettingsSchema = z.object({
  store_name: z.string().trim().min(1, messages.fillAllRequired).max(200),
  contact_email: z.email(messages.invalidEmail).nullable(),
  contact_phone: z.string().trim().max(20).nullable(),
  notify_email: z.boolean(),
  notify_sms: z.boolean(),
});
/**
 * The settings as the server answers them: a contact is shown to payers only once the code sent to it came
 * back (POST /api/merchant/settings/verify-contact); until then it is `_verified: false`.
 */
export const merchantSettingsAnswerSchema = merchantSettingsSchema.extend({
  contact_email_verified: z.boolean(),
  contact_phone_verified: z.boolean(),
});
// POST /api/merchant/settings/verify-contact/send: the code again, to the contact that waits for one.
export const resendStoreContactRequestSchema = z.object({ channel: z.enum(['email', 'phone']) });
export const resendStoreContactResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The address, mostly hidden. */
  sent_to: z.string(),
});
// POST /api/merchant/settings/verify-contact: the code sent to the new contact address.
export const verifyStoreContactRequestSchema = z.object({
  channel: z.enum(['email', 'phone']),
  otp: z.string().regex(/^\d{6}$/, messages.invalidOtp),
});

// Bank accounts
export const bankAccountRequestSchema = z.object({
  holder_name: z.string().trim().min(1, messages.fillAllRequired).max(200),
  account_number: z.string().regex(/^[0-9]{9,18}$/, messages.invalidBankAccount),
  ifsc: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, messages.invalidIfsc),
});
export const bankAccountSchema = z.object({
  id: z.string(),
  holder_name: z.string(),
  /** Only the last four digits leave the server. */
  account_number_last4: z.string(),
  ifsc: z.string(),
});
export const bankAccountListSchema = z.object({ bank_accounts: z.array(bankAccountSchema) });

// Withdrawals (payouts)
export const withdrawalRequestSchema = z.object({
  amount: rupeesAmountSchema,
  bank_account_id: z.uuid(messages.fillAllRequired),
});
export const withdrawalSchema = z.object({
  id: z.string(),
  amount: z.string(),
  status: z.enum(['pending', 'settled', 'rejected', 'expired']),
  date: z.string(),
  bank_account_last4: z.string(),
  store_name: z.string().optional(),
});
export const withdrawalListSchema = z.object({ withdrawals: z.array(withdrawalSchema) });
export const payoutDecisionSchema = z.object({ action: z.enum(['settle', 'reject']) });
