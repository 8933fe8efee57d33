import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { insertSms, smsSentSince, withAttemptLock } from './attempt-repository';

const HOUR_MS = 3_600_000;

/**
 * Where codes may be texted and how many an hour (issue 23, SMS pumping): anyone may ask for a code for a
 * number without signing in, and each SMS costs money, international ones most.
 */
export interface SmsPolicy {
  /** E.164 country prefixes SMS may go to (SMS_ALLOWED_PREFIXES, default +91). */
  allowedPrefixes: readonly string[];
  /** Texts one client may cause in an hour (SMS_BUDGET_PER_CLIENT_PER_HOUR). */
  perClientPerHour: number;
  /** Texts all clients together may cause in an hour (SMS_BUDGET_GLOBAL_PER_HOUR). */
  globalPerHour: number;
}

/** Refuses (400 smsCountryNotAllowed) a number outside the allowed prefixes, before anything is sent. */
export function assertSmsAllowed(policy: SmsPolicy, phone: string): void {
  if (!policy.allowedPrefixes.some((prefix) => phone.startsWith(prefix)))
    throw AppError.of('BAD_REQUEST', 'smsCountryNotAllowed');
}

/**
 * Counts one SMS against the client's and the global hourly budgets and answers true, or answers false
 * (nothing counted) when either is spent. Serialised across requests and servers, so a burst cannot pass.
 */
export async function takeSmsBudget(
  db: Kysely<Schema>,
  policy: SmsPolicy,
  input: { phone: string; client: string; now: Date },
): Promise<boolean> {
  return withAttemptLock(db, 'sms-budget', async (trx) => {
    const sent = await smsSentSince(trx, {
      client: input.client,
      since: new Date(input.now.getTime() - HOUR_MS),
    });
    if (sent.all >= policy.globalPerHour || sent.byClient >= policy.perClientPerHour) return false;
    await insertSms(trx, { phone: input.phone, client: input.client, at: input.now });
    return true;
  });
}
