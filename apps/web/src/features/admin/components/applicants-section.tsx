import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';

import { Modal } from '../../../components/modal';
import { dangerButtonClass, disabledClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { applicantsQueryKey, deleteApplicant, fetchApplicants } from '../api/public-forms-admin';
import type { Applicant } from '../api/public-forms-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const COLUMNS = ['Name', 'Email', 'Phone', 'Description', 'Joined', 'Actions'] as const;

/** Applicants (spec §2.17, §8): the waitlist, each deletable after the confirm. */
export function ApplicantsSection() {
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
        `${messages.failedToDeleteApplicantPrefix}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: applicantsQueryKey });
    },
  });

  return (
    <AdminSection headingId={headingId} title="Applicants">
      <ListState
        query={applicants}
        loadingText="Loading applicants..."
        failureText={messages.failedToLoadApplicants}
        emptyText="No applicants yet."
        isEmpty={(data) => data.length === 0}
      />
      {applicants.isSuccess && applicants.data.length > 0 ? (
        <AdminTable columns={COLUMNS}>
          {applicants.data.map((applicant) => (
            <tr key={applicant.id}>
              <td className={`${cellClass} font-medium text-slate-900`}>{applicant.username}</td>
              <td className={`${cellClass} break-all`}>{applicant.email}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{applicant.phonenumber}</td>
              <td className={`${cellClass} max-w-md whitespace-pre-line`}>{applicant.description}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDate(applicant.created_at)}</td>
              <td className="px-4 py-3">
                <button
                  type="button"
                  className={secondaryButtonClass}
                  onClick={() => setConfirming(applicant)}
                >
                  Delete<span className="sr-only"> applicant {applicant.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}

      <Modal
        open={confirming !== null}
        title={messages.confirmDeleteApplicant}
        onClose={() => setConfirming(null)}
      >
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              <strong className="text-slate-900">{confirming.username}</strong> ({confirming.email}) is
              removed from the waitlist.
            </p>
            <button
              type="button"
              className={`${dangerButtonClass} ${disabledClass}`}
              disabled={remove.isPending}
              onClick={() => remove.mutate(confirming)}
            >
              {remove.isPending ? 'Deleting...' : 'Confirm delete'}
            </button>
          </div>
        )}
      </Modal>
    </AdminSection>
  );
}
