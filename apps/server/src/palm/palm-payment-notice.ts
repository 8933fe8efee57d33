import { formatInr, paiseToRupeesText } from '@hasta/ledger/money';
import type { Transaction } from 'kysely';
import { hashToken, newToken } from '../auth/secrets';
import type { Schema } from '../db/schema';
import { indiaTimeText, notifyOwner, type NoticeDeps } from '../notices/notify-owner';
import type { PalmPaymentFacts, PalmPaymentNoticeRepository } from './palm-payment-notice-repository';

/**
 * Every palm payment that moves money tells its payer (issue 21): the amount, the payee, the time and a
 * "Not me?" link. The notice is written in the payment's own transaction (no payment goes unannounced), sent
 * right after it commits, and, when sending failed, sent again by the expiry round (a fresh token each time:
 * the old one never left the server). A failed send never undoes the payment.
 */

/** How long a "Not me?" link works. */
export const NOT_ME_TOKEN_TTL_MS = 7 * 24 * 3_600_000;
/** A notice whose send failed is tried again this long after the last attempt, at most this many times. */
export const NOTICE_RETRY_AFTER_MS = 60_000;
export const NOTICE_MAX_ATTEMPTS = 20;
/** Most notices one round sends again. */
export const NOTICE_RETRY_BATCH = 50;

/** What writing and sending the notices needs. */
export interface PaymentNoticeDeps {
  notices: PalmPaymentNoticeRepository;
  notify: NoticeDeps;
}

/** The "Not me?" token as stored: its SHA-256 (a database leak gives no usable link). */
export function notMeTokenHash(token: string): string {
  return hashToken(token);
}

/** "₹5,000.00" from paise. */
export function rupeesText(amountPaise: bigint): string {
  return formatInr(paiseToRupeesText(amountPaise), 'en-IN');
}

/** The link in a notice. */
export function notMeLink(origin: string, token: string): string {
  return `${origin}/not-me?token=${token}`;
}

/**
 * Writes the payer's notice of payment `transferId` in the payment's transaction, with a fresh token; the
 * token to send once the transaction committed.
 */
export async function writePaymentNotice(
  notices: PalmPaymentNoticeRepository,
  trx: Transaction<Schema>,
  notice: { transferId: string; payerUserId: string; linkOrigin: string; now: Date },
): Promise<string> {
  const token = newToken();
  await notices.within(trx).add({
    transferId: notice.transferId,
    payerUserId: notice.payerUserId,
    tokenHash: notMeTokenHash(token),
    linkOrigin: notice.linkOrigin,
    expiresAt: new Date(notice.now.getTime() + NOT_ME_TOKEN_TTL_MS),
    now: notice.now,
  });
  return token;
}

function noticeText(facts: PalmPaymentFacts, link: string): { subject: string; body: string } {
  return {
    subject: 'You paid by palm on Hasta',
    body:
      `Hasta: ${rupeesText(facts.amountPaise)} paid by your palm to ${facts.payee} on ` +
      `${indiaTimeText(facts.createdAt)}. Not me? ${link}`,
  };
}

/** Sends the notice of payment `transferId` with `token`, and marks it sent. Throws when sending fails. */
export async function sendPaymentNotice(
  deps: PaymentNoticeDeps,
  transferId: string,
  token: string,
  now: Date,
): Promise<void> {
  const [facts, origin] = await Promise.all([
    deps.notices.facts(transferId),
    deps.notices.linkOrigin(transferId),
  ]);
  if (!facts || origin === undefined) throw new Error(`palm payment ${transferId} has no notice to send`);
  await notifyOwner(deps.notify, facts.payerUserId, noticeText(facts, notMeLink(origin, token)));
  await deps.notices.markSent(transferId, now);
}

/**
 * The expiry round's task: notices whose send failed are sent again (each with a fresh token), at most
 * NOTICE_RETRY_BATCH per round and NOTICE_MAX_ATTEMPTS per notice. Failures are reported to `onError`.
 */
export async function resendUnsentPaymentNotices(
  deps: PaymentNoticeDeps,
  now: Date,
  onError: (error: unknown, transferId: string) => void,
): Promise<number> {
  const before = new Date(now.getTime() - NOTICE_RETRY_AFTER_MS);
  let sent = 0;
  for (const transferId of await deps.notices.unsent(before, NOTICE_MAX_ATTEMPTS, NOTICE_RETRY_BATCH)) {
    const token = newToken();
    if (!(await deps.notices.retake(transferId, notMeTokenHash(token), before, now))) continue;
    try {
      await sendPaymentNotice(deps, transferId, token, now);
      sent += 1;
    } catch (error) {
      onError(error, transferId);
    }
  }
  return sent;
}
