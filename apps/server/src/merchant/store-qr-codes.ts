import { randomBytes } from 'node:crypto';
import { formatPaymentUri, payeeNameForUri, type QrCode } from '@hasta/contracts/qr';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { AppError } from '../lib/app-error';
import { balanceLimitError } from '../ledger/ledger-errors';
import { lockStore } from './merchant-repository';
import type { MerchantDeps } from './merchant-deps';
import { countQrCodes, insertQrCode, listQrCodes, type StoreQrCode } from './qr-code-repository';
import type { SignedInStore } from './signed-in-store';

/** A store keeps at most this many codes, so its list is always whole. */
export const MAX_QR_CODES = 500;
/** 16 random bytes: a printed code's id cannot be guessed from another's. */
const QR_TOKEN_BYTES = 16;

/** A store code as its merchant sees it, with the URI it prints (named with the store's current name). */
function toAnswer(code: StoreQrCode, storeName: string): QrCode {
  return {
    id: code.id,
    uri: formatPaymentUri({
      payee: { kind: 'store', id: code.merchantId },
      payee_name: payeeNameForUri(storeName),
      ...(code.amountPaise === null ? {} : { amount_paise: code.amountPaise }),
      qr: code.token,
    }),
    label: code.label,
    amount: code.amountPaise === null ? null : paiseToRupeesText(code.amountPaise),
    scans: code.scans,
    created_at: code.createdAt.toISOString(),
  };
}

/** The store's payment codes, newest first, with how often each was scanned. */
export async function storeQrCodes(deps: Pick<MerchantDeps, 'db'>, store: SignedInStore): Promise<QrCode[]> {
  const codes = await listQrCodes(deps.db, store.id, MAX_QR_CODES);
  return codes.map((code) => toAnswer(code, store.storeName));
}

/**
 * A new payment code for the store, for any amount or a fixed one, with an optional label. A fixed amount no
 * wallet could ever pay in one go is refused now rather than at the till; a store at MAX_QR_CODES is refused.
 */
export async function createStoreQrCode(
  deps: Pick<MerchantDeps, 'db' | 'ledger'>,
  store: SignedInStore,
  input: { amountPaise: bigint | null; label: string | null },
): Promise<QrCode> {
  if (input.amountPaise !== null && input.amountPaise > deps.ledger.limits.maxBalancePaise)
    throw balanceLimitError(deps.ledger.limits);
  const code = await deps.db.transaction().execute(async (trx) => {
    // The store row is locked so two requests cannot both pass the count.
    await lockStore(trx, store.id);
    if ((await countQrCodes(trx, store.id)) >= MAX_QR_CODES) throw AppError.of('CONFLICT', 'qrLimitReached');
    return insertQrCode(trx, {
      merchantId: store.id,
      token: randomBytes(QR_TOKEN_BYTES).toString('base64url'),
      amountPaise: input.amountPaise,
      label: input.label,
    });
  });
  return toAnswer(code, store.storeName);
}
