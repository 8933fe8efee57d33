import { INQUIRY_ROLES } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { fetchInquiries, inquiriesQueryKey } from '../api/public-forms-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const COLUMNS = ['name', 'contact', 'role', 'message', 'received'] as const;

const isInquiryRole = (role: string): role is (typeof INQUIRY_ROLES)[number] =>
  (INQUIRY_ROLES as readonly string[]).includes(role);

/** Inquiries (spec §2.17): the contact page's general inquiries, read-only. */
export function InquiriesSection() {
  const { t } = useTranslation('admin');
  const headingId = useId();
  const inquiries = useQuery({
    queryKey: inquiriesQueryKey,
    queryFn: ({ signal }) => fetchInquiries(signal),
    ...loadOnOpen,
  });
  return (
    <AdminSection headingId={headingId} title={t('inquiries.heading')}>
      <ListState
        query={inquiries}
        loadingText={t('inquiries.loading')}
        failureText={messages.failedToLoadInquiries}
        emptyText={t('inquiries.empty')}
        isEmpty={(data) => data.length === 0}
      />
      {inquiries.isSuccess && inquiries.data.length > 0 ? (
        <AdminTable columns={COLUMNS.map((column) => t(`inquiries.columns.${column}`))}>
          {inquiries.data.map((inquiry) => (
            <tr key={inquiry.id}>
              <td translate="no" className={`${cellClass} font-medium text-slate-900`}>
                {inquiry.name}
              </td>
              <td translate="no" className={`${cellClass} break-all`}>
                {inquiry.email_or_phone}
              </td>
              <td className={cellClass}>
                {isInquiryRole(inquiry.role) ? t(`inquiries.roles.${inquiry.role}`) : inquiry.role}
              </td>
              <td translate="no" className={`${cellClass} max-w-md whitespace-pre-line`}>
                {inquiry.message}
              </td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDate(inquiry.created_at)}</td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
    </AdminSection>
  );
}
