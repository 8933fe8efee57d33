import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import { dangerButtonClass, disabledClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { applicantsQueryKey, deleteApplicant, fetchApplicants } from '../api/public-forms-admin';
import type { Applicant } from '../api/public-forms-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const COLUMNS = ['name', 'email', 'phone', 'description', 'joined', 'actions'] as const;

/** Applicants (spec §2.17, §8): the waitlist, each deletable after the confirm. */
export function ApplicantsSection() {
  const { t } = useTranslation(['admin', 'messages']);
  const headingId = useId();
  const queryClient = useQueryClient();
  const applicants = useQuery({
    queryKey: applicantsQueryKey,
    queryFn: ({ signal }) => fetchApplicants(signal),
    ...loadOnOpen,
  });
  const [confirming, setConfirming] = useState<Applicant | null>(null);

  const remove = useMutation({
    mutationFn: (applicant: Applicant) => deleteApplicant(applicant.id),
    onSuccess: (answer) => {
      setConfirming(null);
      toast.success(answer.message || messages.applicantDeleted);
      void queryClient.invalidateQueries({ queryKey: applicantsQueryKey });
    },
    onError: (cause) => {
      setConfirming(null);
      toast.error(
        `${t('messages:failedToDeleteApplicantPrefix')}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: applicantsQueryKey });
    },
  });

  return (
    <AdminSection headingId={headingId} title={t('applicants.heading')}>
      <ListState
        query={applicants}
        loadingText={t('applicants.loading')}
        failureText={messages.failedToLoadApplicants}
        emptyText={t('applicants.empty')}
        isEmpty={(data) => data.length === 0}
      />
      {applicants.isSuccess && applicants.data.length > 0 ? (
        <AdminTable columns={COLUMNS.map((column) => t(`applicants.columns.${column}`))}>
          {applicants.data.map((applicant) => (
            <tr key={applicant.id}>
              <td translate="no" className={`${cellClass} font-medium text-slate-900`}>
                {applicant.username}
              </td>
              <td translate="no" className={`${cellClass} break-all`}>
                {applicant.email}
              </td>
              <td className={`${cellClass} whitespace-nowrap`}>{applicant.phonenumber}</td>
              <td translate="no" className={`${cellClass} max-w-md whitespace-pre-line`}>
                {applicant.description}
              </td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDate(applicant.created_at)}</td>
              <td className="px-4 py-3">
                <button
                  type="button"
                  className={secondaryButtonClass}
                  onClick={() => setConfirming(applicant)}
                >
                  {t('delete')}
                  <span className="sr-only">{t('applicants.deleteFor', { email: applicant.email })}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}

      <Modal
        open={confirming !== null}
        title={t('messages:confirmDeleteApplicant')}
        onClose={() => setConfirming(null)}
      >
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              <Trans
                t={t}
                i18nKey="applicants.removed"
                values={{ name: confirming.username, email: confirming.email }}
                components={{ strong: <strong className="text-slate-900" /> }}
              />
            </p>
            <button
              type="button"
              className={`${dangerButtonClass} ${disabledClass}`}
              disabled={remove.isPending}
              onClick={() => remove.mutate(confirming)}
            >
              {remove.isPending ? t('deleting') : t('confirmDelete')}
            </button>
          </div>
        )}
      </Modal>
    </AdminSection>
  );
}
