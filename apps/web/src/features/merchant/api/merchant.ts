import { successResponseSchema } from '@hasta/contracts/auth';
import {
  bankAccountListSchema,
  merchantPaymentsResponseSchema,
  merchantSettingsAnswerSchema,
  merchantSummarySchema,
  resendStoreContactResponseSchema,
  withdrawalListSchema,
} from '@hasta/contracts/merchant';
import { qrCodeListSchema, qrCodeResponseSchema } from '@hasta/contracts/qr';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

/** The store dashboard's calls (spec §2.16, §3): every figure comes from the server, for the signed-in store. */

export type MerchantSummary = z.infer<typeof merchantSummarySchema>;
export type MerchantPayment = z.infer<typeof merchantPaymentsResponseSchema>['payments'][number];
export type MerchantSettings = z.infer<typeof merchantSettingsAnswerSchema>;
export type MerchantSettingsInput = Omit<
  MerchantSettings,
  'contact_email_verified' | 'contact_phone_verified'
>;
export type ContactChannel = 'email' | 'phone';
export type BankAccount = z.infer<typeof bankAccountListSchema>['bank_accounts'][number];
export type Withdrawal = z.infer<typeof withdrawalListSchema>['withdrawals'][number];

export const merchantKeys = {
  all: ['merchant'] as const,
  summary: ['merchant', 'summary'] as const,
  payments: ['merchant', 'payments'] as const,
  settings: ['merchant', 'settings'] as const,
  bankAccounts: ['merchant', 'bank-accounts'] as const,
  withdrawals: ['merchant', 'withdrawals'] as const,
  qrCodes: ['merchant', 'qr-codes'] as const,
};

const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

export const fetchSummary = (signal?: AbortSignal) =>
  apiRequest('/api/merchant/summary', { schema: merchantSummarySchema, ...withSignal(signal) });

export const fetchPayments = async (signal?: AbortSignal) =>
  (
    await apiRequest('/api/merchant/payments', {
      schema: merchantPaymentsResponseSchema,
      ...withSignal(signal),
    })
  ).payments;

export const fetchSettings = (signal?: AbortSignal) =>
  apiRequest('/api/merchant/settings', { schema: merchantSettingsAnswerSchema, ...withSignal(signal) });

export const saveSettings = (settings: MerchantSettingsInput) =>
  apiRequest('/api/merchant/settings', {
    method: 'PUT',
    body: settings,
    schema: merchantSettingsAnswerSchema,
  });

/** The code sent to a new contact address: payers see that contact once it is verified. */
export const verifyContact = (request: { channel: ContactChannel; otp: string }) =>
  apiRequest('/api/merchant/settings/verify-contact', {
    method: 'POST',
    body: request,
    schema: merchantSettingsAnswerSchema,
  });

export const resendContactCode = (channel: ContactChannel) =>
  apiRequest('/api/merchant/settings/verify-contact/send', {
    method: 'POST',
    body: { channel },
    schema: resendStoreContactResponseSchema,
  });

export const fetchBankAccounts = async (signal?: AbortSignal) =>
  (await apiRequest('/api/merchant/bank-accounts', { schema: bankAccountListSchema, ...withSignal(signal) }))
    .bank_accounts;

export const addBankAccount = async (account: {
  holder_name: string;
  account_number: string;
  ifsc: string;
}) =>
  (
    await apiRequest('/api/merchant/bank-accounts', {
      method: 'POST',
      body: account,
      schema: bankAccountListSchema,
    })
  ).bank_accounts;

export const fetchWithdrawals = async (signal?: AbortSignal) =>
  (await apiRequest('/api/merchant/withdrawals', { schema: withdrawalListSchema, ...withSignal(signal) }))
    .withdrawals;

/** `idempotencyKey` is made once per attempt, so a retried request cannot reserve the money twice. */
export const requestWithdrawal = (request: {
  amountText: string;
  bankAccountId: string;
  idempotencyKey: string;
}) =>
  apiRequest('/api/merchant/withdrawals', {
    method: 'POST',
    headers: { 'Idempotency-Key': request.idempotencyKey },
    // The endpoint takes rupees as a JSON number; the text was checked to have at most 2 decimals.
    body: { amount: Number(request.amountText), bank_account_id: request.bankAccountId },
    schema: successResponseSchema,
  });

export const fetchQrCodes = async (signal?: AbortSignal) =>
  (await apiRequest('/api/merchant/qr-codes', { schema: qrCodeListSchema, ...withSignal(signal) })).qr_codes;

export const createQrCode = (request: { amountText: string | null; label: string }) =>
  apiRequest('/api/merchant/qr-codes', {
    method: 'POST',
    body: {
      ...(request.amountText === null ? {} : { amount: Number(request.amountText) }),
      ...(request.label.trim() === '' ? {} : { label: request.label.trim() }),
    },
    schema: qrCodeResponseSchema,
  });
