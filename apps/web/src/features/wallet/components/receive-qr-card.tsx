import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { QrCodeCanvas } from '../../../components/qr-code-canvas';
import { errorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/i18n-format';
import { useStoredUser } from '../../../lib/auth-storage';
import { fetchReceiveQr, receiveQrQueryKey } from '../api/qr';

/**
 * The signed-in person's own payment QR code (GET /api/qr/receive): another Hasta user scans it with Scan QR
 * Code and pays them, after their own OTP. With `amount`, the code asks for exactly that amount.
 */
export function ReceiveQrCard({ amount }: { amount: string | null }) {
  const { t } = useTranslation('wallet');
  const user = useStoredUser();
  const userId = user === null ? null : String(user.id);
  const code = useQuery({
    queryKey: receiveQrQueryKey(userId ?? '', amount),
    queryFn: ({ signal }) => fetchReceiveQr(amount, signal),
    enabled: userId !== null,
    staleTime: Infinity,
  });

  if (userId === null) return null;
  const title =
    amount === null ? t('receiveQr.title') : t('receiveQr.titleAmount', { amount: formatMoney(amount) });
  return (
    <div className="mt-4 border-t border-slate-200 pt-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      {code.isPending ? (
        <p role="status" className="mt-2 text-slate-600">
          {t('receiveQr.loading')}
        </p>
      ) : null}
      {code.isError ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          {errorMessage(code.error, t('receiveQr.failed'))}
        </p>
      ) : null}
      {code.data === undefined ? null : (
        <figure className="mt-3 max-w-xs">
          <QrCodeCanvas
            text={code.data.uri}
            label={t('receiveQr.label', { title, payee: code.data.payee_name })}
            size_px={220}
          />
          <figcaption className="mt-2 text-sm text-slate-600">
            {t('receiveQr.caption', { payee: code.data.payee_name })}
          </figcaption>
        </figure>
      )}
    </div>
  );
}
