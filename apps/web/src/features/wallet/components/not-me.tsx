import { Trans, useTranslation } from 'react-i18next';
import { messages } from '@hasta/contracts/messages';
import type { Dispute } from '@hasta/contracts/palm-trust';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { toast } from 'react-hot-toast';

import { Modal } from '../../../components/modal';
import { dangerButtonClass, disabledClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { disputesQueryKey, fetchMyDisputes, reportPalmPayment } from '../api/disputes';
import { disputesByTransaction } from '../dispute-status';

/** A palm payment the signed-in person made, which they can report as "Not me". */
export interface PalmPayment {
  transactionId: string;
  /** Rupees as a decimal string. */
  amount: string;
  createdAt: string;
}

export interface NotMe {
  /** Each reported payment's dispute, by transaction id (empty until the list loads). */
  disputes: ReadonlyMap<string, Dispute>;
  /** Opens the confirm dialog for `payment`. */
  ask: (payment: PalmPayment) => void;
  /** The confirm dialog: render it once beside the list. */
  dialog: ReactNode;
}

/**
 * "Not me" in the History (issue 21): the payer's disputes (GET /api/palm/disputes), and a confirm dialog
 * that reports one palm payment (POST /api/palm/disputes), which pauses palm pay on every hand and device.
 */
export function useNotMe(userId: string | null): NotMe {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<PalmPayment | null>(null);
  const disputes = useQuery({
    queryKey: disputesQueryKey(userId ?? ''),
    queryFn: ({ signal }) => fetchMyDisputes(signal),
    enabled: userId !== null,
    refetchOnMount: 'always',
    select: disputesByTransaction,
  });
  const { t } = useTranslation('wallet');
  const report = useMutation({
    mutationFn: (payment: PalmPayment) => reportPalmPayment(payment.transactionId),
    onSuccess: () => {
      setAsking(null);
      toast.success(messages.notMeReported);
    },
    onError: (cause) => {
      setAsking(null);
      toast.error(errorMessage(cause, messages.internal));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: disputesQueryKey(userId ?? '') }),
  });

  const dialog = (
    <Modal open={asking !== null} title={t('notMe.title')} onClose={() => setAsking(null)}>
      {asking === null ? null : (
        <div className="space-y-4">
          <p>
            <Trans
              t={t}
              i18nKey="notMe.explain"
              values={{ amount: formatMoney(asking.amount), when: formatDateTime(asking.createdAt) }}
              components={{ strong: <strong className="text-slate-900" /> }}
            />
          </p>
          <button
            type="button"
            className={`${dangerButtonClass} ${disabledClass}`}
            disabled={report.isPending}
            onClick={() => report.mutate(asking)}
          >
            {report.isPending ? t('notMe.reporting') : t('notMe.report')}
          </button>
        </div>
      )}
    </Modal>
  );

  return { disputes: disputes.data ?? new Map<string, Dispute>(), ask: setAsking, dialog };
}

/** Beside a palm payment the person made: its dispute's state, or the "Not me" button. */
export function NotMeAction({
  payment,
  dispute,
  onAsk,
}: {
  payment: PalmPayment;
  dispute: Dispute | undefined;
  onAsk: (payment: PalmPayment) => void;
}) {
  const { t } = useTranslation('wallet');
  if (dispute !== undefined) {
    const tone =
      dispute.status === 'refunded'
        ? 'bg-emerald-50 text-emerald-900'
        : dispute.status === 'rejected'
          ? 'bg-red-50 text-red-800'
          : 'bg-amber-50 text-amber-900';
    return (
      <p
        className={`mt-2 inline-block rounded-lg px-2 py-1 text-sm font-semibold break-words ${tone}`}
        data-testid="dispute-status"
      >
        {dispute.status === 'refunded'
          ? t('notMe.refunded')
          : dispute.status === 'rejected'
            ? t('notMe.rejected', { reason: dispute.reason ?? t('notMe.noReason') })
            : t('notMe.reported')}
      </p>
    );
  }
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      className={`${secondaryButtonClass} mt-2 px-3 py-1`}
      onClick={() => onAsk(payment)}
    >
      {t('notMe.button')}
      <span className="sr-only">
        {t('notMe.buttonDetail', {
          amount: formatMoney(payment.amount),
          when: formatDateTime(payment.createdAt),
        })}
      </span>
    </button>
  );
}
