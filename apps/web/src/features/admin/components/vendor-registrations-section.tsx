import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';

import { Modal } from '../../../components/modal';
import { disabledClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { approveVendor, merchantsQueryKey } from '../api/merchants-admin';
import { fetchVendorRegistrations, vendorRegistrationsQueryKey } from '../api/public-forms-admin';
import type { VendorRegistration } from '../api/public-forms-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const COLUMNS = [
  'Business',
  'Owner',
  'Email',
  'Phone',
  'Address',
  'Interests',
  'Comments',
  'Received',
  'Merchant',
] as const;

/**
 * Vendor Registrations (spec §2.17): the vendor form's registrations. Approving one makes its owner a
 * merchant (POST /api/merchants): the account is created (or an existing user becomes a merchant) and the
 * owner is emailed.
 */
export function VendorRegistrationsSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const registrations = useQuery({
    queryKey: vendorRegistrationsQueryKey,
    queryFn: ({ signal }) => fetchVendorRegistrations(signal),
    ...loadOnOpen,
  });
  const [confirming, setConfirming] = useState<VendorRegistration | null>(null);

  const approve = useMutation({
    mutationFn: (registration: VendorRegistration) => approveVendor(registration.id),
    onSuccess: (answer) => {
      setConfirming(null);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: vendorRegistrationsQueryKey });
      void queryClient.invalidateQueries({ queryKey: merchantsQueryKey });
    },
    onError: (cause) => {
      setConfirming(null);
      toast.error(
        `${messages.failedToApproveVendorPrefix}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: vendorRegistrationsQueryKey });
    },
  });

  return (
    <AdminSection headingId={headingId} title="Vendor Registrations">
      <ListState
        query={registrations}
        loadingText="Loading vendor registrations..."
        failureText={messages.failedToLoadVendorRegistrations}
        emptyText="No vendor registrations yet."
        isEmpty={(data) => data.length === 0}
      />
      {registrations.isSuccess && registrations.data.length > 0 ? (
        <AdminTable columns={COLUMNS}>
          {registrations.data.map((registration) => (
            <tr key={registration.id}>
              <td className={`${cellClass} font-medium text-slate-900`}>{registration.business_name}</td>
              <td className={cellClass}>{registration.owner_name}</td>
              <td className={`${cellClass} break-all`}>{registration.email}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{registration.phone}</td>
              <td className={`${cellClass} max-w-xs`}>{registration.address}</td>
              <td className={cellClass}>
                {registration.interests.length === 0 ? '—' : registration.interests.join(', ')}
              </td>
              <td className={`${cellClass} max-w-xs whitespace-pre-line`}>{registration.comments || '—'}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDate(registration.created_at)}</td>
              <td className="px-4 py-3">
                {registration.merchant_id === null ? (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => setConfirming(registration)}
                  >
                    Approve<span className="sr-only"> {registration.business_name}</span>
                  </button>
                ) : (
                  <span className="font-medium text-emerald-800">Approved</span>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}

      <Modal open={confirming !== null} title="Approve this vendor?" onClose={() => setConfirming(null)}>
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              <strong className="text-slate-900">{confirming.business_name}</strong> becomes a merchant.
              {` ${confirming.owner_name}`} ({confirming.email}) gets a merchant account and an email with how
              to log in.
            </p>
            <button
              type="button"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={approve.isPending}
              onClick={() => approve.mutate(confirming)}
            >
              {approve.isPending ? 'Approving...' : 'Confirm approval'}
            </button>
          </div>
        )}
      </Modal>
    </AdminSection>
  );
}
