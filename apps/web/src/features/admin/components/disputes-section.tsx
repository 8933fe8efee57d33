import { messages } from '@hasta/contracts/messages';
import { resolveDisputeRequestSchema } from '@hasta/contracts/palm-trust';
import type { AdminDispute } from '@hasta/contracts/palm-trust';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';

import { FormAlert } from '../../../components/form-field';
import { Modal } from '../../../components/modal';
import {
  cardClass,
  dangerButtonClass,
  disabledClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formErrorMessage } from '../../../lib/form-errors';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { disputesQueryKey, fetchDisputes, resolveDispute } from '../api/disputes-admin';
import type { DisputeResolution } from '../api/disputes-admin';
import { AdminSection, ListState, loadOnOpen } from './admin-list';

/** The reject form: the contract's reason (1 to 500 characters, messages.disputeReasonRequired). */
const rejectFormSchema = z.object({ reason: resolveDisputeRequestSchema.options[1].shape.reason });
type RejectFormValues = z.infer<typeof rejectFormSchema>;

const OPENED_VIA = {
  link: 'disputes.viaLink',
  history: 'disputes.viaHistory',
} as const satisfies Record<AdminDispute['opened_via'], string>;

function statusText(t: TFunction<'admin'>, dispute: AdminDispute): string {
  if (dispute.status === 'open') return t('disputes.open');
  if (dispute.status === 'refunded') {
    return dispute.refunded_from === 'losses' ? t('disputes.refundedLosses') : t('disputes.refundedPayee');
  }
  return t('disputes.rejected', { reason: dispute.reason ?? '—' });
}

function payerText(dispute: AdminDispute): string {
  return [dispute.payer_email, dispute.payer_phone].filter((part) => part !== null).join(' · ') || '—';
}

const amountOf = (dispute: AdminDispute): string => formatMoney(dispute.transaction.amount);

/**
 * Disputes (issue 21): palm payments their payers reported as "Not me", open ones first. An open dispute is
 * refunded (a ledger reversal; from the losses account when the payee can no longer cover it) or rejected
 * with a reason the payer is told. Cards rather than a table, so the whole record fits a phone.
 */
export function DisputesSection() {
  const { t } = useTranslation('admin');
  const headingId = useId();
  const queryClient = useQueryClient();
  const disputes = useQuery({
    queryKey: disputesQueryKey,
    queryFn: ({ signal }) => fetchDisputes(signal),
    ...loadOnOpen,
  });
  const [refunding, setRefunding] = useState<AdminDispute | null>(null);
  const [rejecting, setRejecting] = useState<AdminDispute | null>(null);

  const resolve = useMutation({
    mutationFn: (input: { dispute: AdminDispute; resolution: DisputeResolution }) =>
      resolveDispute(input.dispute.id, input.resolution),
    onSuccess: (_answer, input) => {
      setRefunding(null);
      setRejecting(null);
      toast.success(
        input.resolution.action === 'refund' ? messages.disputeRefunded : messages.disputeRejected,
      );
    },
    onError: (cause) => {
      setRefunding(null);
      setRejecting(null);
      toast.error(errorMessage(cause, messages.internal));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: disputesQueryKey }),
  });

  return (
    <AdminSection headingId={headingId} title={t('disputes.heading')}>
      <ListState
        query={disputes}
        loadingText={t('disputes.loading')}
        failureText={messages.failedToLoadDisputes}
        emptyText={t('disputes.empty')}
        isEmpty={(data) => data.length === 0}
      />
      {disputes.isSuccess && disputes.data.length > 0 ? (
        <ul className="space-y-4">
          {disputes.data.map((dispute) => (
            <li key={dispute.id}>
              <DisputeCard
                dispute={dispute}
                onRefund={() => setRefunding(dispute)}
                onReject={() => setRejecting(dispute)}
              />
            </li>
          ))}
        </ul>
      ) : null}

      <Modal open={refunding !== null} title={t('disputes.refundTitle')} onClose={() => setRefunding(null)}>
        {refunding === null ? null : (
          <div className="space-y-4">
            <p>
              <Trans
                t={t}
                i18nKey="disputes.refundBody"
                values={{ amount: amountOf(refunding), payer: payerText(refunding), payee: refunding.payee }}
                components={{ strong: <strong className="text-slate-900" /> }}
              />
            </p>
            <button
              type="button"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ dispute: refunding, resolution: { action: 'refund' } })}
            >
              {resolve.isPending ? t('disputes.refunding') : t('disputes.confirmRefund')}
            </button>
          </div>
        )}
      </Modal>

      <Modal open={rejecting !== null} title={t('disputes.rejectTitle')} onClose={() => setRejecting(null)}>
        {rejecting === null ? null : (
          <RejectForm
            // A fresh form for each dispute.
            key={rejecting.id}
            dispute={rejecting}
            busy={resolve.isPending}
            onReject={(reason) =>
              resolve.mutate({ dispute: rejecting, resolution: { action: 'reject', reason } })
            }
          />
        )}
      </Modal>
    </AdminSection>
  );
}

function DisputeCard({
  dispute,
  onRefund,
  onReject,
}: {
  dispute: AdminDispute;
  onRefund: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation('admin');
  const headingId = useId();
  const amount = amountOf(dispute);
  return (
    <article aria-labelledby={headingId} className={`${cardClass} p-4 sm:p-6`} data-testid="dispute">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={headingId} className="text-lg font-semibold text-slate-900">
          {t('disputes.cardTitle', { amount, payee: dispute.payee })}
        </h3>
        <p
          className={`rounded-lg px-2 py-1 text-sm font-semibold break-words ${
            dispute.status === 'open' ? 'bg-amber-50 text-amber-900' : 'bg-slate-100 text-slate-800'
          }`}
        >
          {statusText(t, dispute)}
        </p>
      </div>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Field label={t('disputes.paid')}>{formatDateTime(dispute.transaction.created_at)}</Field>
        <Field label={t('disputes.transaction')}>
          <span className="font-mono break-all">{dispute.transaction.id}</span>
        </Field>
        <Field label={t('disputes.payer')}>
          <span className="break-all" translate="no">
            {payerText(dispute)}
          </span>
        </Field>
        <Field label={t('disputes.payee')}>
          <span className="break-words" translate="no">
            {dispute.payee}
          </span>
        </Field>
        <Field label={t('disputes.device')}>
          {dispute.device === null ? (
            t('disputes.unknown')
          ) : (
            <span className="break-words" translate="no">
              {dispute.device}
            </span>
          )}
        </Field>
        <Field label={t('disputes.similarity')}>
          {dispute.similarity === null ? '—' : `${dispute.similarity.toFixed(1)}%`}
        </Field>
        <Field label={t('disputes.opened')}>
          {t('disputes.openedWhen', {
            via: t(OPENED_VIA[dispute.opened_via]),
            when: formatDateTime(dispute.created_at),
          })}
        </Field>
        {dispute.resolved_at === null ? null : (
          <Field label={t('disputes.closed')}>{formatDateTime(dispute.resolved_at)}</Field>
        )}
      </dl>
      {dispute.status === 'open' ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" className={secondaryButtonClass} aria-haspopup="dialog" onClick={onRefund}>
            {t('disputes.refund')}
            <span className="sr-only">{t('disputes.refundFor', { amount, payer: payerText(dispute) })}</span>
          </button>
          <button type="button" className={secondaryButtonClass} aria-haspopup="dialog" onClick={onReject}>
            {t('disputes.reject')}
            <span className="sr-only">{t('disputes.rejectFor', { amount })}</span>
          </button>
        </div>
      ) : null}
    </article>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

function RejectForm({
  dispute,
  busy,
  onReject,
}: {
  dispute: AdminDispute;
  busy: boolean;
  onReject: (reason: string) => void;
}) {
  const { t } = useTranslation('admin');
  const reasonId = useId();
  const alertId = useId();
  const form = useForm<RejectFormValues>({
    resolver: zodResolver(rejectFormSchema),
    defaultValues: { reason: '' },
  });
  const problem = formErrorMessage(form.formState.errors);
  return (
    <form noValidate className="space-y-4" onSubmit={form.handleSubmit((values) => onReject(values.reason))}>
      <p>
        <Trans
          t={t}
          i18nKey="disputes.rejectBody"
          values={{ amount: amountOf(dispute), payee: dispute.payee }}
          components={{ strong: <strong className="text-slate-900" /> }}
        />
      </p>
      <div>
        <label htmlFor={reasonId} className={labelClass}>
          {t('disputes.reason')}
        </label>
        <textarea
          id={reasonId}
          rows={3}
          aria-invalid={form.formState.errors.reason !== undefined}
          aria-describedby={problem === null ? undefined : alertId}
          className={inputClass}
          {...form.register('reason')}
        />
      </div>
      <FormAlert id={alertId} message={problem} />
      <button type="submit" className={`${dangerButtonClass} ${disabledClass}`} disabled={busy}>
        {busy ? t('disputes.rejecting') : t('disputes.confirmReject')}
      </button>
    </form>
  );
}
