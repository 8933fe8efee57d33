import { formatPaymentUri, payeeNameForUri } from '@hasta/contracts/qr';
import { parseRupees } from '@hasta/ledger/money';
import { AppError } from '../lib/app-error';

/** A person's own payment QR URI, optionally asking for a fixed amount (rupees as typed, e.g. "250.50"). */
export function receivePaymentQr(input: {
  user: { id: string; username: string };
  amount: string | undefined;
}): { payee_name: string; uri: string } {
  const amountPaise = input.amount === undefined ? null : parseRupees(input.amount);
  if (input.amount !== undefined && (amountPaise === null || amountPaise <= 0n))
    throw AppError.of('BAD_REQUEST', 'invalidAmount');
  const payeeName = payeeNameForUri(input.user.username);
  return {
    payee_name: payeeName,
    uri: formatPaymentUri({
      payee: { kind: 'user', id: input.user.id },
      payee_name: payeeName,
      ...(amountPaise === null ? {} : { amount_paise: amountPaise }),
    }),
  };
}
