import { formatInr } from '@hasta/ledger/money';
import { useQuery } from '@tanstack/react-query';

import { QrCodeCanvas } from '../../../components/qr-code-canvas';
import { errorMessage } from '../../../lib/api-client';
import { useStoredUser } from '../../../lib/auth-storage';
import { fetchReceiveQr, receiveQrQueryKey } from '../api/qr';

/**
 * The signed-in person's own payment QR code (GET /api/qr/receive): another Hasta user scans it with Scan QR
 * Code and pays them, after their own OTP. With `amount`, the code asks for exactly that amount.
 */
export function ReceiveQrCard({ amount }: { amount: string | null }) {
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
    amount === null ? 'Your payment QR code' : `Payment QR code for ${formatInr(amount, 'en-IN')}`;
  return (
    <div className="mt-4 border-t border-slate-200 pt-4">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      {code.isPending ? (
        <p role="status" className="mt-2 text-slate-600">
          Loading your QR code...
        </p>
      ) : null}
      {code.isError ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          {errorMessage(code.error, 'Your QR code could not be loaded.')}
        </p>
      ) : null}
      {code.data === undefined ? null : (
        <figure className="mt-3 max-w-xs">
          <QrCodeCanvas text={code.data.uri} label={`${title}: pays ${code.data.payee_name}`} size_px={220} />
          <figcaption className="mt-2 text-sm text-slate-600">
            Anyone with Hasta can scan this code with Scan QR Code to pay {code.data.payee_name}.
          </figcaption>
        </figure>
      )}
    </div>
  );
}
