import { formatInr, paiseToRupeesText } from '@hasta/ledger/money';
import type { OtpPurpose } from '../db/schema';
import type { OutgoingMessage } from '../messaging/messenger';
import { maskAddress } from '../notices/notify-owner';
import type { TransferBinding } from './otp';
import { channelOf } from './users';

const WHAT: Record<OtpPurpose, string> = {
  login: 'login code',
  registration: 'verification code',
  transfer: 'code to confirm your transfer',
  password_reset: 'password reset code',
  palm_enrol: 'code to register a palm on your account',
  palm_unfreeze: 'code to turn palm pay back on',
  store_contact: 'code to confirm this address as your store contact',
  store_bank_account: 'code to add a bank account to your store',
  store_withdrawal: 'code to withdraw from your store',
  passkey_manage: 'code to add or remove a passkey',
};

/**
 * The message carrying a one-time code (and, for email registration, the link that continues it). A bound
 * transfer code names what it approves, the receiver masked as in owner notices: "Your Hasta code is 123456
 * to send ₹100.00 to as•••@example.in."
 */
export function codeMessage(input: {
  identifier: string;
  purpose: OtpPurpose;
  code: string;
  registrationLink?: string | undefined;
  transfer?: TransferBinding | undefined;
}): OutgoingMessage {
  const what = input.transfer
    ? `code is ${input.code} to send ${formatInr(paiseToRupeesText(input.transfer.amountPaise), 'en-IN')} to ${maskAddress(input.transfer.receiver)}`
    : `${WHAT[input.purpose]} is ${input.code}`;
  const line = `Your Hasta ${what}. It expires in 5 minutes. Never share it with anyone.`;
  if (channelOf(input.identifier) === 'sms') return { channel: 'sms', to: input.identifier, body: line };
  const link = input.registrationLink
    ? `\n\nOr continue your registration by opening this link:\n${input.registrationLink}`
    : '';
  return {
    channel: 'email',
    to: input.identifier,
    subject: `Your Hasta ${WHAT[input.purpose]}`,
    body: `${line}${link}\n\nIf you did not ask for this, you can ignore this message.`,
  };
}

/** Sent instead of a code when the address's state does not fit the request, so the API never tells. */
export function noticeMessage(input: {
  identifier: string;
  kind: 'already-registered' | 'no-account';
  origin: string;
}): OutgoingMessage {
  const body =
    input.kind === 'already-registered'
      ? `Someone tried to register a Hasta account with this address, but you already have one. Log in at ${input.origin}/login. If this was not you, you can ignore this message.`
      : `Someone asked for a Hasta code for this address, but no Hasta account uses it. To open one, register at ${input.origin}/register.`;
  if (channelOf(input.identifier) === 'sms') return { channel: 'sms', to: input.identifier, body };
  return { channel: 'email', to: input.identifier, subject: 'About your Hasta account', body };
}
