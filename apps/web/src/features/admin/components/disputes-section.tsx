import { messages } from '@hasta/contracts/messages';
import { resolveDisputeRequestSchema } from '@hasta/contracts/palm-trust';
import type { AdminDispute } from '@hasta/contracts/palm-trust';
import { formatInr } from '@hasta/ledger/money';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-hot-toast';
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
import { formatDateTime } from '../../../lib/date-format';
import { formErrorMessage } from '../../../lib/form-errors';
import { disputesQueryKey, fetchDisputes, resolveDispute } from '../api/disputes-admin';
import type { DisputeResolution } from '../api/disputes-admin';
import { AdminSection, ListState, loadOnOpen } from './admin-list';

/** The reject form: the contract's reason (1 to 500 characters, messages.disputeReasonRequired). */
const rejectFormSchema = z.object({ reason: resolveDisputeRequestSchema.options[1].shape.reason });
type RejectFormValues = z.infer<typeof rejectFormSchema>;

const OPENED_VIA: Record<AdminDispute['opened_via'], string> = {
  link: 'Not me link in the notice',
  history: 'Not me in the History',
};

function statusText(dispute: AdminDispute): string {
  if (dispute.status === 'open') return 'Open';
  if (dispute.status === 'refunded') {
    return dispute.refunded_from === 'losses' ? 'Refunded from the losses account' : 'Refunded by the payee';
  }
  return `Rejected: ${dispute.reason ?? '—'}`;
}

function payerText(dispute: AdminDispute): string {
  return [dispute.payer_email, dispute.payer_phone].filter((part) => part !== null).join(' · ') || '—';
}

const amountOf = (dispute: AdminDispute): string => formatInr(dispute.transaction.amount, 'en-IN');

/**
 * Disputes (issue 21): palm payments their payers reported as "Not me", open ones first. An open dispute is
 * refunded (a ledger reversal; from the losses account when the payee can no longer cover it) or rejected
 * with a reason the payer is told. Cards rather than a table, so the whole record fits a phone.
 */
export function DisputesSection() {
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
    <AdminSection headingId={headingId} title="Disputes">
      <ListState
        query={disputes}
        loadingText="Loading disputes..."
        failureText={messages.failedToLoadDisputes}
        emptyText="No disputes: no palm payment has been reported."
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

      <Modal open={refunding !== null} title="Refund this payment?" onClose={() => setRefunding(null)}>
        {refunding === null ? null : (
          <div className="space-y-4">
            <p>
              <strong className="text-slate-900">{amountOf(refunding)}</strong> goes back to{' '}
              {payerText(refunding)} from {refunding.payee}. If the payee’s balance no longer covers it, it
              comes from the losses account. The payer is told.
            </p>
            <button
              type="button"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ dispute: refunding, resolution: { action: 'refund' } })}
            >
              {resolve.isPending ? 'Refunding...' : 'Confirm refund'}
            </button>
          </div>
        )}
      </Modal>

      <Modal open={rejecting !== null} title="Reject this dispute?" onClose={() => setRejecting(null)}>
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
  const headingId = useId();
  const amount = amountOf(dispute);
  return (
    <article aria-labelledby={headingId} className={`${cardClass} p-4 sm:p-6`} data-testid="dispute">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={headingId} className="text-lg font-semibold text-slate-900">
          {amount} to {dispute.payee}
        </h3>
        <p
          className={`rounded-lg px-2 py-1 text-sm font-semibold break-words ${
            dispute.status === 'open' ? 'bg-amber-50 text-amber-900' : 'bg-slate-100 text-slate-800'
          }`}
        >
          {statusText(dispute)}
        </p>
      </div>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Field label="Paid">{formatDateTime(dispute.transaction.created_at)}</Field>
        <Field label="Transaction">
          <span className="font-mono break-all">{dispute.transaction.id}</span>
        </Field>
        <Field label="Payer">
          <span className="break-all">{payerText(dispute)}</span>
        </Field>
        <Field label="Payee">
          <span className="break-words">{dispute.payee}</span>
        </Field>
        <Field label="Device">
          <span className="break-words">{dispute.device ?? 'Unknown'}</span>
        </Field>
        <Field label="Similarity">
          {dispute.similarity === null ? '—' : `${dispute.similarity.toFixed(1)}%`}
        </Field>
        <Field label="Opened">
          {OPENED_VIA[dispute.opened_via]}, {formatDateTime(dispute.created_at)}
        </Field>
        {dispute.resolved_at === null ? null : (
          <Field label="Closed">{formatDateTime(dispute.resolved_at)}</Field>
        )}
      </dl>
      {dispute.status === 'open' ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" className={secondaryButtonClass} aria-haspopup="dialog" onClick={onRefund}>
            Refund
            <span className="sr-only">
              {' '}
              {amount} to {payerText(dispute)}
            </span>
          </button>
          <button type="button" className={secondaryButtonClass} aria-haspopup="dialog" onClick={onReject}>
            Reject
            <span className="sr-only"> the dispute of {amount}</span>
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
        The <strong className="text-slate-900">{amountOf(dispute)}</strong> payment to {dispute.payee} stays
        paid. The payer is told the reason.
      </p>
      <div>
        <label htmlFor={reasonId} className={labelClass}>
          Reason
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
        {busy ? 'Rejecting...' : 'Confirm reject'}
      </button>
    </form>
  );
}
