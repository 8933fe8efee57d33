import { OTP_RESEND_COOLDOWN_MS } from '@hasta/contracts/constants';
import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';
import { messages } from '@hasta/contracts/messages';
import { rupeesNumberToPaise } from '@hasta/ledger/money';
import type { OtpPurpose } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { AuthDeps, Caller } from './auth-deps';
import { codeMessage, noticeMessage } from './notices';
import { issueOtp, takeSendAllowance, type TransferBinding } from './otp';
import { otpPurposeOf } from './otp-purpose';
import { assertSmsAllowed, takeSmsBudget } from './sms-budget';
import { findUserByIdentifier } from './user-repository';
import { channelOf } from './users';

export interface SendCodeResult {
  success: true;
  message: string;
  resend_after_s: number;
}

/**
 * Sends a one-time code to an email or phone (spec §7), within the address's send allowance. When the
 * address's state does not fit the purpose (registering a taken address, logging in without an account), a
 * notice goes out instead of a code, and the answer is the same, so it never tells which.
 *
 * SMS (issue 23, SMS pumping): only to the allowed country prefixes (else 400, nothing sent), and within the
 * client's and the global hourly SMS budgets. Past a budget, a code for an account that has an email goes
 * there instead (the code still checks against the phone); otherwise the answer is the spec's "Too many OTP
 * requests" and nothing is sent.
 *
 * A transfer code may be asked for with the amount and the receiver it approves (issue 23): its message names
 * them, and its verification pays only that transfer. Without them the code pays any one transfer, as the
 * seed's client expects; our web app always sends them.
 */
export async function sendCode(
  deps: AuthDeps,
  input: {
    identifier: string;
    /** As the client sent it; see otpPurposeOf when it did not. */
    requested: OtpPurpose | undefined;
    caller: Caller | undefined;
    /** The public origin, for the links in messages. */
    origin: string;
    /** Who is asking: the client's address (the SMS budget per client). */
    client: string;
    /** For a transfer code: the transfer it approves, as the client typed it (both or neither). */
    transfer?:
      { amount: number; receiverEmail?: string | undefined; receiverPhone?: string | undefined } | undefined;
  },
): Promise<SendCodeResult> {
  const { db } = deps;
  const { identifier, caller } = input;
  const texted = channelOf(identifier) === 'sms';
  if (texted) assertSmsAllowed(deps.sms, identifier);
  const now = deps.now();
  const user = await findUserByIdentifier(db, identifier);
  const purpose = await otpPurposeOf(input.requested, {
    step: 'send',
    signedIn: caller !== undefined,
    hasAccount: user !== undefined,
  });
  // Palm step-up codes go only to the owner's own contact (palm/palm-step-up.ts), never to a named address.
  if (
    purpose === 'palm_enrol' ||
    purpose === 'palm_unfreeze' ||
    purpose === 'store_contact' ||
    purpose === 'store_bank_account' ||
    purpose === 'store_withdrawal' ||
    purpose === 'passkey_manage'
  )
    throw AppError.of('BAD_REQUEST', 'invalidRequest');
  if (purpose === 'transfer') {
    if (!caller) throw AppError.of('UNAUTHORIZED', 'unauthorized');
    if (identifier !== caller.user.email && identifier !== caller.user.phone)
      throw AppError.of('FORBIDDEN', 'forbidden');
  }
  const binding = input.transfer === undefined ? undefined : transferBindingOf(input.transfer);
  if (binding && purpose !== 'transfer') throw AppError.of('BAD_REQUEST', 'invalidRequest');
  await takeSendAllowance(db, identifier, purpose, now);

  const needsAccount = purpose !== 'registration';
  const codeFits = needsAccount === (user !== undefined);
  /** Where the message goes: the address asked for, or the account's email once the SMS budget is spent. */
  let deliverTo = identifier;
  if (texted && !(await takeSmsBudget(db, deps.sms, { phone: identifier, client: input.client, now }))) {
    if (!codeFits || !user?.email) throw AppError.of('RATE_LIMITED', 'tooManyOtpRequests');
    deliverTo = user.email;
  }
  if (!codeFits) {
    await deps.messenger.send(
      noticeMessage({
        identifier,
        kind: user ? 'already-registered' : 'no-account',
        origin: input.origin,
      }),
    );
  } else {
    const withLink = purpose === 'registration' && channelOf(identifier) === 'email';
    const { code, linkToken } = await issueOtp(
      db,
      {
        secret: deps.secret,
        identifier,
        purpose,
        ...(purpose === 'transfer' && caller ? { sessionId: caller.sessionId } : {}),
        withLink,
        binding,
      },
      now,
    );
    const registrationLink = linkToken
      ? `${input.origin}/register?${new URLSearchParams({ token: linkToken, email: identifier, type: 'registration' })}`
      : undefined;
    await deps.messenger.send(
      codeMessage({ identifier: deliverTo, purpose, code, registrationLink, transfer: binding }),
    );
  }
  return {
    success: true,
    message: channelOf(deliverTo) === 'sms' ? messages.otpSentPhone : messages.otpSentEmail,
    resend_after_s: OTP_RESEND_COOLDOWN_MS / 1000,
  };
}

/** The transfer a code approves, as sendMoney will name it: the amount in paise, the receiver normalized. */
export function transferBindingOf(transfer: {
  amount: number;
  receiverEmail?: string | undefined;
  receiverPhone?: string | undefined;
}): TransferBinding {
  const amountPaise = rupeesNumberToPaise(transfer.amount);
  if (amountPaise === null) throw AppError.of('BAD_REQUEST', 'amountTooPrecise');
  if (amountPaise <= 0n) throw AppError.of('BAD_REQUEST', 'amountPositive');
  // sendMoney pays the email when both are given, so the code binds to it too.
  if (transfer.receiverEmail !== undefined) {
    const receiver = normalizeEmail(transfer.receiverEmail);
    if (receiver === null) throw AppError.of('BAD_REQUEST', 'invalidEmail');
    return { amountPaise, receiver };
  }
  if (transfer.receiverPhone === undefined) throw AppError.of('BAD_REQUEST', 'receiverRequired');
  const receiver = normalizePhone(transfer.receiverPhone);
  if (receiver === null) throw AppError.of('BAD_REQUEST', 'invalidPhone');
  return { amountPaise, receiver };
}
