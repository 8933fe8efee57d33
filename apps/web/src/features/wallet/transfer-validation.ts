import { messages } from '@hasta/contracts/messages';
import { parseRupees } from '@hasta/ledger/money';

export interface TransferFormValues {
  receiverPhone: string;
  receiverEmail: string;
  amount: string;
}

export interface Sender {
  email: string | null;
  phone: string | null;
}

const digits = (text: string): string => text.replace(/\D/g, '');

/** Same phone whether typed as +91 98…, 98… or 091 98…: the digits, with the +91 country code optional. */
export function samePhone(typed: string, own: string): boolean {
  const a = digits(typed).replace(/^0+/, '');
  const b = digits(own).replace(/^0+/, '');
  if (a === '' || b === '') return false;
  return a === b || `91${a}` === b || a === `91${b}`;
}

/** Spec §5.10, in its order; the first problem, or null. */
export function validateTransfer(values: TransferFormValues, sender: Sender): string | null {
  const email = values.receiverEmail.trim();
  const phone = values.receiverPhone.trim();
  const amount = values.amount.trim();
  if (email === '' && phone === '') return messages.receiverRequired;
  if (amount === '') return messages.amountRequired;
  const paise = parseRupees(amount);
  if (paise === null) {
    return /^\d*\.\d{3,}$/.test(amount) ? messages.amountTooPrecise : messages.amountPositive;
  }
  if (paise <= 0n) return messages.amountPositive;
  if (email !== '' && sender.email !== null && email.toLowerCase() === sender.email.trim().toLowerCase()) {
    return messages.selfSendEmail;
  }
  if (phone !== '' && sender.phone !== null && samePhone(phone, sender.phone)) return messages.selfSendPhone;
  return null;
}
