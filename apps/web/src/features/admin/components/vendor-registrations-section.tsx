import { VENDOR_INTERESTS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import { disabledClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { approveVendor, merchantsQueryKey } from '../api/merchants-admin';
import { fetchVendorRegistrations, vendorRegistrationsQueryKey } from '../api/public-forms-admin';
import type { VendorRegistration } from '../api/public-forms-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const COLUMNS = [
  'business',
  'owner',
  'email',
  'phone',
  'address',
  'interests',
  'comments',
  'received',
  'merchant',
] as const;

/** Each interest's label in `admin:vendors.interests` (the value stored is the spec's English label). */
const INTEREST_KEYS = {
  'PalmPOS Integration': 'pos',
  'PalmKiosk Setup': 'kiosk',
  'API Integration': 'api',
} as const satisfies Record<(typeof VENDOR_INTERESTS)[number], string>;

const isKnownInterest = (interest: string): interest is keyof typeof INTEREST_KEYS =>
  (VENDOR_INTERESTS as readonly string[]).includes(interest);

/**
 * Vendor Registrations (spec §2.17): the vendor form's registrations. Approving one makes its owner a
 * merchant (POST /api/merchants): the account is created (or an existing user becomes a merchant) and the
 * owner is emailed.
 */
export function VendorRegistrationsSection() {
  const { t } = useTranslation(['admin', 'messages']);
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
        `${t('messages:failedToApproveVendorPrefix')}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: vendorRegistrationsQueryKey });
    },
  });

  return (
    <AdminSection headingId={headingId} title={t('vendors.heading')}>
      <ListState
        query={registrations}
        loadingText={t('vendors.loading')}
        failureText={messages.failedToLoadVendorRegistrations}
        emptyText={t('vendors.empty')}
        isEmpty={(data) => data.length === 0}
      />
      {registrations.isSuccess && registrations.data.length > 0 ? (
        <AdminTable columns={COLUMNS.map((column) => t(`vendors.columns.${column}`))}>
          {registrations.data.map((registration) => (
            <tr key={registration.id}>
              <td translate="no" className={`${cellClass} font-medium text-slate-900`}>
                {registration.business_name}
              </td>
              <td translate="no" className={cellClass}>
                {registration.owner_name}
              </td>
              <td translate="no" className={`${cellClass} break-all`}>
                {registration.email}
              </td>
              <td translate="no" className={`${cellClass} whitespace-nowrap`}>
                {registration.phone}
              </td>
              <td translate="no" className={`${cellClass} max-w-xs`}>
                {registration.address}
              </td>
              <td className={cellClass}>
                {registration.interests.length === 0
                  ? '—'
                  : registration.interests
                      .map((interest) =>
                        isKnownInterest(interest)
                          ? t(`vendors.interests.${INTEREST_KEYS[interest]}`)
                          : interest,
                      )
                      .join(', ')}
              </td>
              <td translate="no" className={`${cellClass} max-w-xs whitespace-pre-line`}>
                {registration.comments || '—'}
              </td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDate(registration.created_at)}</td>
              <td className="px-4 py-3">
                {registration.merchant_id === null ? (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => setConfirming(registration)}
                  >
                    {t('vendors.approve')}
                    <span className="sr-only" translate="no">
                      {' '}
                      {registration.business_name}
                    </span>
                  </button>
                ) : (
                  <span className="font-medium text-emerald-800">{t('vendors.approved')}</span>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      ) : null}

      <Modal open={confirming !== null} title={t('vendors.confirmTitle')} onClose={() => setConfirming(null)}>
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              <Trans
                t={t}
                i18nKey="vendors.confirmBody"
                values={{
                  business: confirming.business_name,
                  owner: confirming.owner_name,
                  email: confirming.email,
                }}
                components={{ strong: <strong className="text-slate-900" /> }}
              />
            </p>
            <button
              type="button"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={approve.isPending}
              onClick={() => approve.mutate(confirming)}
            >
              {approve.isPending ? t('vendors.approving') : t('vendors.confirm')}
            </button>
          </div>
        )}
      </Modal>
    </AdminSection>
  );
}
