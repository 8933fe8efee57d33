import { messages } from '@hasta/contracts/messages';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { palmPayLimits } from '../../env';
import type { PalmConfirmationDeps } from '../../palm/palm-payment-confirmation';
import type { PalmPaymentDeps, PalmPaymentOutcome } from '../../palm/take-palm-payment';

/**
 * What the two palm payment routes share (/Palm/authenticate for a person, /api/transaction for a store):
 * the body limit of a scan, the use case's dependencies, and the answer.
 */

/**
 * The OpenAPI tag of every route through which a palm moves money or is enrolled: each is held to the palm
 * limits, the payer's notice, the freeze and the replay guard (test/palm-guarded-routes.test.ts lists them).
 */
export const PALM_GUARDED_TAG = 'palm-guarded';

/** A scan is up to 5 frames of 21.8 kB of base64 each: more than the API's default body limit. */
export const PALM_BODY_LIMIT_BYTES = 160 * 1024;

/** Most characters of a user agent kept as a palm payment's device. */
const DEVICE_MAX_CHARS = 200;

/** Where a palm scan was taken, as far as it is known: the receiving session's user agent, shortened. */
export function receivingDevice(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent']?.trim();
  return agent ? agent.slice(0, DEVICE_MAX_CHARS) : null;
}

/** Confirming or cancelling a waiting palm payment: its dependencies, logging to this request's logger. */
export function palmConfirmationDeps(app: FastifyInstance, log: FastifyBaseLogger): PalmConfirmationDeps {
  return {
    ledger: app.ledger,
    pendingExpiry: app.pendingExpiry,
    payments: app.palmPayments,
    codeSecret: app.env.COOKIE_SECRET,
    notices: app.palmNotices,
    notify: app.ownerNotices,
    log,
    rewards: app.rewards,
  };
}

/** The palm payment use cases' dependencies, logging to this request's logger. */
export function palmPaymentDeps(app: FastifyInstance, log: FastifyBaseLogger): PalmPaymentDeps {
  return {
    ...palmConfirmationDeps(app, log),
    palm: app.palm,
    messenger: app.messenger,
    limits: palmPayLimits(app.env),
    replays: app.palmReplays,
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
