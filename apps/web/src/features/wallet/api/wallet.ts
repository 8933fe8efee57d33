import { otpSendResponseSchema, otpVerifyResponseSchema } from '@hasta/contracts/auth';
import {
  dashboardHistoryResponseSchema,
  dashboardResponseSchema,
  transactionHistoryResponseSchema,
  transferResponseSchema,
} from '@hasta/contracts/wallet';
import type { DashboardResponse, HistoryEntry, TransactionRecord } from '@hasta/contracts/wallet';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

export type DashboardUser = DashboardResponse['user'];

export const dashboardQueryKey = (userId: string) => ['wallet', 'dashboard', userId] as const;
export const historyQueryKey = (userId: string) => ['wallet', 'history', userId] as const;

/** GET /api/dashboard?userId= (spec §2.11). */
export async function fetchDashboard(userId: string, signal?: AbortSignal): Promise<DashboardUser> {
  const answer = await apiRequest(`/api/dashboard?${new URLSearchParams({ userId })}`, {
    schema: dashboardResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return answer.user;
}

/** A page of a list and where the next (older) one starts; null at the end. */
export interface HistoryPage<T> {
  items: T[];
  next: string | null;
}

/** The query of a page: the person, and `before` for an older page. */
function pageQuery(userId: string, before: string | undefined, limit: number): string {
  const query = new URLSearchParams({ userId, limit: String(limit) });
  if (before !== undefined) query.set('before', before);
  return query.toString();
}

/** GET /api/transaction/history?userId=&before=&limit= (spec §2.14): a page of transfers, newest first. */
export async function fetchTransactionHistory(
  userId: string,
  before: string | undefined,
  limit: number,
  signal?: AbortSignal,
): Promise<HistoryPage<TransactionRecord>> {
  const answer = await apiRequest(`/api/transaction/history?${pageQuery(userId, before, limit)}`, {
    schema: transactionHistoryResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return { items: answer.transactions, next: answer.next };
}

/** GET /api/dashboard/history?userId=&before=&limit=: older pages of the dashboard's History tab. */
export async function fetchDashboardHistory(
  userId: string,
  before: string,
  limit: number,
  signal?: AbortSignal,
): Promise<HistoryPage<HistoryEntry>> {
  const answer = await apiRequest(`/api/dashboard/history?${pageQuery(userId, before, limit)}`, {
    schema: dashboardHistoryResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
  return { items: answer.user_history, next: answer.next };
}

export type OtpChannel = { kind: 'sms'; phone: string } | { kind: 'email'; email: string };

/** Spec §4: SMS if the user has a phone, else email, else none. */
export function chooseOtpChannel(user: { phone: string | null; email: string | null }): OtpChannel | null {
  if (user.phone !== null && user.phone.trim() !== '') return { kind: 'sms', phone: user.phone };
  if (user.email !== null && user.email.trim() !== '') return { kind: 'email', email: user.email };
  return null;
}

/**
 * Step 1 of a transfer: a transfer code to the caller's own phone or email, bound to the transfer it approves
 * (issue 23): its message names the amount and the receiver, and it pays only that transfer.
 */
export function sendTransferOtp(
  channel: OtpChannel,
  transfer: Pick<PendingTransfer, 'receiverEmail' | 'receiverPhone' | 'amountText'>,
): Promise<z.infer<typeof otpSendResponseSchema>> {
  const binding = {
    amount: Number(transfer.amountText),
    receiverEmail: transfer.receiverEmail,
    receiverPhone: transfer.receiverPhone,
  };
  return channel.kind === 'sms'
    ? apiRequest('/api/send-sms-otp', {
        method: 'POST',
        body: { phone: channel.phone, purpose: 'transfer', ...binding },
        schema: otpSendResponseSchema,
      })
    : apiRequest('/api/email-otp/send', {
        method: 'POST',
        body: { email: channel.email, purpose: 'transfer', ...binding },
        schema: otpSendResponseSchema,
      });
}

/** Step 2: the code; one verification pays for one transfer within 5 minutes. */
export function verifyTransferOtp(channel: OtpChannel, otp: string): Promise<unknown> {
  return channel.kind === 'sms'
    ? apiRequest('/api/verify-sms-otp', {
        method: 'POST',
        body: { phone: channel.phone, otp, purpose: 'transfer' },
        schema: otpVerifyResponseSchema,
      })
    : apiRequest('/api/email-otp/verify', {
        method: 'POST',
        body: { email: channel.email, otp, purpose: 'transfer' },
        schema: otpVerifyResponseSchema,
      });
}

export interface PendingTransfer {
  receiverEmail: string;
  receiverPhone: string;
  /** Rupees as typed and checked (at most 2 decimals): the JSON number the endpoint takes. */
  amountText: string;
  /** How the receiver was chosen: typed, or read from a scanned payment QR code. */
  method: 'phone_email' | 'qr_scan';
  /** Made once per attempt, so a retried request cannot pay twice. */
  idempotencyKey: string;
}

/** Step 3: POST /api/transfer with the attempt's Idempotency-Key. */
export function postTransfer(userId: string, pending: PendingTransfer) {
  return apiRequest('/api/transfer', {
    method: 'POST',
    headers: { 'Idempotency-Key': pending.idempotencyKey },
    body: {
      userId,
      receiverEmail: pending.receiverEmail,
      receiverPhone: pending.receiverPhone,
      amount: Number(pending.amountText),
      transferMethod: pending.method,
    },
    schema: transferResponseSchema,
  });
}
