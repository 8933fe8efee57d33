import { messages } from '@hasta/contracts/messages';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { PalmPaymentDeps, PalmPaymentOutcome } from '../../palm/take-palm-payment';

/**
 * What the two palm payment routes share (/Palm/authenticate for a person, /api/transaction for a store):
 * the body limit of a scan, the use case's dependencies, and the answer.
 */

/** A scan is up to 5 frames of 21.8 kB of base64 each: more than the API's default body limit. */
export const PALM_BODY_LIMIT_BYTES = 160 * 1024;

/** The palm payment use cases' dependencies, logging to this request's logger. */
export function palmPaymentDeps(app: FastifyInstance, log: FastifyBaseLogger): PalmPaymentDeps {
  return {
    palm: app.palm,
    ledger: app.ledger,
    pendingExpiry: app.pendingExpiry,
    payments: app.palmPayments,
    messenger: app.messenger,
    replays: app.palmReplays,
    notices: app.notices,
    codeSecret: app.env.COOKIE_SECRET,
    log,
  };
}

/** A palm payment that moved the money (spec §7: `state` true, `authenticated` true). */
export function palmPaidAnswer(transaction: TransactionRecord, message: string) {
  return {
    success: true as const,
    state: true as const,
    authenticated: true as const,
    message,
    transaction,
  };
}

/** The answer of a palm payment call: 200 and the transaction, or 202 while it waits for the payer's code. */
export function palmPaymentAnswer(outcome: PalmPaymentOutcome, reply: FastifyReply, paidMessage: string) {
  if (outcome.kind === 'paid') return palmPaidAnswer(outcome.transaction, paidMessage);
  void reply.code(202);
  return {
    success: true as const,
    state: false as const,
    confirmation_required: true as const,
    message: outcome.confirmation.channel === 'sms' ? messages.palmCodeSentPhone : messages.palmCodeSentEmail,
    confirmation: outcome.confirmation,
  };
}
