import type { RewardsBook } from '../rewards/rewards-book';
import { randomUUID } from 'node:crypto';
import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';
import type { TransactionRecord } from '@hasta/contracts/wallet';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { createBatchLoader } from '../lib/batch-loader';
import { TtlCache } from '../lib/ttl-cache';
import type { BatchedTransferInput, BatchStep, BatchSteps, TransferBatcher } from '../ledger/batcher';
import { paiseOf, toAppError } from '../ledger/ledger-errors';
import { uuidFromText, type Ledger } from '../ledger/ledger';
import { toTransactionRecord } from '../ledger/queries';
import { accountsNamedBy, findReceivers, type Receiver } from './receiver-repository';
import {
  hasUnspentVerification,
  spendNewestVerifications,
  type VerificationClaim,
} from './verification-repository';

/** A verified code pays for a transfer for this long after it was entered. */
const TRANSFER_VERIFICATION_TTL_MS = 5 * 60_000;
/** Most receiver addresses read by one query. */
const RECEIVER_BATCH = 256;
/**
 * Receivers found recently, by address. A transfer credits a cached receiver only if the address still names
 * that account when its batch is written (receiverStillNamesAccount), so a stale entry costs a fresh lookup,
 * never a wrong payee.
 */
const RECEIVER_CACHE_TTL_MS = 60_000;
const RECEIVER_CACHE_SIZE = 100_000;
/** A cached receiver, then fresh lookups: an address that changes under every try gets a 409. */
const RECEIVER_ATTEMPTS = 3;

/** The transfer's address no longer names its credit account: nothing was written or spent, the id is free. */
export class ReceiverChangedError extends Error {
  constructor() {
    super('receiver_changed');
    this.name = 'ReceiverChangedError';
  }
}

/** The transfer needed a fresh verification and its session had none: nothing was written, the id is free. */
export class VerificationMissingError extends Error {
  constructor() {
    super('verification_missing');
    this.name = 'VerificationMissingError';
  }
}

/** A transfer of Send Money, as the group-commit path carries it. */
export interface SendMoneyTransfer extends BatchedTransferInput {
  /** Spent in the transfer's own transaction on its first use (never on a replay). */
  verification?: VerificationClaim | undefined;
  /**
   * The email or phone the transfer was addressed to: it is written only if that address still names
   * `creditAccountId`, so the caller may have found the receiver in a cache.
   */
  receiverAddress?: string | undefined;
}

/**
 * Step 1 of a batch: a transfer addressed to an email or phone goes only to the account that address names
 * now (the owner's store when they are a merchant with one, else their own); any other is given back.
 */
export const receiverStillNamesAccount: BatchStep<SendMoneyTransfer> = async (trx, transfers) => {
  const addressed = transfers.filter((t) => t.receiverAddress !== undefined);
  const named = await accountsNamedBy(
    trx,
    addressed.map((t) => t.receiverAddress!),
  );
  const moved = new Map<string, Error>();
  for (const t of addressed)
    if (named.get(t.receiverAddress!) !== t.creditAccountId) moved.set(t.id, new ReceiverChangedError());
  return moved;
};

/**
 * Step 2 of a batch: one verified code pays for one transfer. Each transfer that needs one spends the newest
 * unspent, unexpired verification of its session that is unbound or bound to this very amount and receiver
 * (sessions are distinct within a batch); one whose session has none is given back.
 */
export const spendTransferVerification: BatchStep<SendMoneyTransfer> = async (trx, transfers) => {
  const needing = transfers.filter((t) => t.verification !== undefined);
  const spent = await spendNewestVerifications(
    trx,
    needing.map((t) => t.verification!),
  );
  const missing = new Map<string, Error>();
  for (const t of needing)
    if (!spent.has(t.verification!.sessionId)) missing.set(t.id, new VerificationMissingError());
  return missing;
};

/** What the group-commit path runs per batch for Send Money, between the claim and the posting. */
export const sendMoneySteps: BatchSteps<SendMoneyTransfer> = {
  steps: [receiverStillNamesAccount, spendTransferVerification],
  exclusiveKey: (t) => t.verification?.sessionId,
};

export type SendMoneyBatcher = TransferBatcher<SendMoneyTransfer>;

/** Where money sent to an address goes: the receiver, with their store's account or their own. */
interface FoundReceiver {
  receiver: Receiver;
  accountId: string;
}

export interface SendMoneyDeps {
  ledger: Ledger;
  batcher: SendMoneyBatcher;
  /** The receiver an address names (addresses asked for together are read by one query). */
  findReceiver: (address: string) => Promise<Receiver | undefined>;
  receiverCache: TtlCache<FoundReceiver>;
  /** Whether a session holds a verified code a transfer could spend (read only). */
  hasVerification: (claim: VerificationClaim) => Promise<boolean>;
  now: () => Date;
  /** After a payment into a store: the payer's referral, if waiting for their first payment (issue 24). */
  storePaymentMade: (userId: string) => Promise<void>;
}

/** The dependencies of sendMoney, made once per server (they hold the receiver cache). */
export function sendMoneyDeps(options: {
  db: Kysely<Schema>;
  ledger: Ledger;
  batcher: SendMoneyBatcher;
  now?: () => Date;
  rewards: Pick<RewardsBook, 'storePaymentMade'>;
}): SendMoneyDeps {
  return {
    ledger: options.ledger,
    batcher: options.batcher,
    findReceiver: createBatchLoader((addresses: string[]) => findReceivers(options.db, addresses), {
      maxBatch: RECEIVER_BATCH,
    }),
    receiverCache: new TtlCache<FoundReceiver>(RECEIVER_CACHE_TTL_MS, RECEIVER_CACHE_SIZE),
    hasVerification: (claim) => hasUnspentVerification(options.db, claim),
    now: options.now ?? options.ledger.now,
    storePaymentMade: (userId) => options.rewards.storePaymentMade(options.db, userId),
  };
}

export interface SendMoneyInput {
  sender: { id: string; email: string | null; phone: string | null };
  /** The sender's session: its verified code pays for the transfer. */
  sessionId: string;
  /** The caller's Idempotency-Key: it names the transfer within the sender's own requests. */
  idempotencyKey: string | undefined;
  receiverEmail?: string | undefined;
  receiverPhone?: string | undefined;
  /** Rupees as typed. */
  amount: number;
  /** Rechecks the sender's session in the database when it came from a cache (throws when it is gone). */
  recheckSession: () => Promise<void>;
}

/** A caller's key names a transfer only within that caller's own requests. */
function transferIdOf(senderId: string, key: string | undefined): string {
  return key ? uuidFromText(`transfer:${senderId}:${key}`) : randomUUID();
}

async function receiverOf(
  deps: SendMoneyDeps,
  address: string,
  cached: boolean,
): Promise<FoundReceiver | undefined> {
  const hit = cached ? deps.receiverCache.get(address) : undefined;
  if (hit) return hit;
  const receiver = await deps.findReceiver(address);
  if (!receiver) return undefined;
  // Money sent to a merchant's address goes to their store: its sales, its withdrawals.
  const accountId =
    receiver.storeId === null
      ? await deps.ledger.ensureUserAccount(receiver.id)
      : await deps.ledger.ensureMerchantAccount(receiver.storeId);
  const found = { receiver, accountId };
  deps.receiverCache.set(address, found);
  return found;
}

/**
 * Send Money (spec: transfer after an OTP): moves an amount from the sender's wallet to the person (or their
 * store) an email or phone names. One verified code of the sender's session, at most 5 minutes old, pays for
 * exactly one transfer, and a code asked for with an amount and a receiver only for that amount to that
 * receiver (issue 23); the transfer is group-committed with others (spend the code, recheck the receiver,
 * post, in one transaction), and a retry with the same key answers the same transfer without spending again.
 * Without a verified code every address answers 403 alike, whether or not it names an account.
 */
export async function sendMoney(
  deps: SendMoneyDeps,
  input: SendMoneyInput,
): Promise<{ transaction: TransactionRecord }> {
  const { ledger } = deps;
  const { sender } = input;
  const email = input.receiverEmail === undefined ? undefined : normalizeEmail(input.receiverEmail);
  if (email === null) throw AppError.of('BAD_REQUEST', 'invalidEmail');
  const phone = input.receiverPhone === undefined ? undefined : normalizePhone(input.receiverPhone);
  if (phone === null) throw AppError.of('BAD_REQUEST', 'invalidPhone');
  if (email !== undefined && email === sender.email) throw AppError.of('BAD_REQUEST', 'selfSendEmail');
  if (phone !== undefined && phone === sender.phone) throw AppError.of('BAD_REQUEST', 'selfSendPhone');
  const amountPaise = paiseOf(input.amount, ledger.limits);

  const address = (email ?? phone)!;
  const from = await ledger.ensureUserAccount(sender.id);
  const id = transferIdOf(sender.id, input.idempotencyKey);

  const verification: VerificationClaim = {
    sessionId: input.sessionId,
    purpose: 'transfer',
    createdAfter: new Date(deps.now().getTime() - TRANSFER_VERIFICATION_TTL_MS),
    // A code asked for with an amount and a receiver pays only this transfer if they match (issue 23).
    transfer: { amountPaise, receiver: address },
  };

  for (let attempt = 1; ; attempt += 1) {
    const found = await receiverOf(deps, address, attempt === 1);
    if (!found) {
      // Before the code step an address with no account answers what one with an account does (403, the
      // code is needed), so this answer never tells which addresses have accounts. With a verified code
      // (someone who can send money) it is refused as the spec says, and the code is not spent.
      if (!(await deps.hasVerification(verification))) {
        await input.recheckSession();
        throw AppError.of('FORBIDDEN', 'transferVerificationRequired');
      }
      throw AppError.of('NOT_FOUND', 'receiverNotFound');
    }
    const { receiver, accountId: to } = found;
    if (receiver.id === sender.id)
      throw AppError.of('BAD_REQUEST', email ? 'selfSendEmail' : 'selfSendPhone');
    try {
      const transfer = await deps.batcher.submit({
        id,
        debitAccountId: from,
        creditAccountId: to,
        amountPaise,
        kind: 'transfer',
        initiatedBy: sender.id,
        verification,
        receiverAddress: address,
      });
      const store = receiver.storeId === null ? undefined : receiver;
      if (store) {
        try {
          await deps.storePaymentMade(sender.id);
        } catch {
          // The payment stands; an unpaid referral is paid at the payer's next payment (idempotent ids).
        }
      }
      return {
        transaction: toTransactionRecord(
          {
            ...transfer,
            phase: 'single',
            from_user_id: sender.id,
            from_email: sender.email ?? sender.phone,
            to_user_id: store ? null : receiver.id,
            to_merchant_id: store?.storeId ?? null,
            to_email: store ? store.storeContactEmail : (receiver.email ?? receiver.phone),
            resolution: null,
            reversed: false,
          },
          from,
        ),
      };
    } catch (error) {
      if (error instanceof ReceiverChangedError) {
        // The address names another account now: nothing was written or spent; look it up again.
        deps.receiverCache.delete(address);
        if (attempt < RECEIVER_ATTEMPTS) continue;
        throw AppError.of('CONFLICT', 'receiverChanged');
      }
      if (error instanceof VerificationMissingError) {
        // The session may have come from a cache: say what the database says about it now.
        await input.recheckSession();
        throw AppError.of('FORBIDDEN', 'transferVerificationRequired');
      }
      throw toAppError(error, ledger.limits);
    }
  }
}
