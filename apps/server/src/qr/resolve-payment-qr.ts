import { parsePaymentUri, type QrResolveResponse } from '@hasta/contracts/qr';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { findPersonPayee, findStorePayee, findStoreQrCode, recordQrScan } from './payee-repository';

export interface QrDeps {
  db: Kysely<Schema>;
}

function amountText(paise: bigint | null | undefined): string | null {
  return paise === null || paise === undefined ? null : paiseToRupeesText(paise);
}

/**
 * The payer's side of a scan: who gets the money (name, account email/phone) and any fixed amount. A scan
 * only names the payee and the amount; the money then moves through POST /api/transfer and its OTP. A store's
 * printed code counts the scan, and must carry the amount the store set.
 */
export async function resolvePaymentQr(
  deps: QrDeps,
  input: { uri: string; payerId: string },
): Promise<QrResolveResponse> {
  const { db } = deps;
  const payment = parsePaymentUri(input.uri);
  if (payment === null) throw AppError.of('BAD_REQUEST', 'invalidQr');

  if (payment.payee.kind === 'user') {
    if (payment.payee.id === input.payerId) throw AppError.of('BAD_REQUEST', 'ownQr');
    const payee = await findPersonPayee(db, payment.payee.id);
    if (!payee) throw AppError.of('NOT_FOUND', 'qrNotFound');
    return {
      payee_kind: 'user',
      payee_name: payee.name,
      receiverEmail: payee.email,
      receiverPhone: payee.phone,
      amount: amountText(payment.amount_paise),
    };
  }

  const store = await findStorePayee(db, payment.payee.id);
  if (!store) throw AppError.of('NOT_FOUND', 'qrNotFound');
  if (store.ownerUserId === input.payerId) throw AppError.of('BAD_REQUEST', 'ownQr');
  let amountPaise = payment.amount_paise ?? null;
  if (payment.qr !== undefined) {
    const code = await findStoreQrCode(db, { token: payment.qr, merchantId: payment.payee.id });
    if (!code) throw AppError.of('NOT_FOUND', 'qrNotFound');
    // The printed amount must be the one the store set: an edited code is not this store's code.
    if (code.amountPaise !== amountPaise) throw AppError.of('BAD_REQUEST', 'invalidQr');
    amountPaise = code.amountPaise;
    await recordQrScan(db, code.id, new Date());
  }
  return {
    payee_kind: 'store',
    payee_name: store.name,
    receiverEmail: store.email,
    receiverPhone: store.phone,
    amount: amountText(amountPaise),
  };
}
