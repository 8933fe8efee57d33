import { PREMISES_OPTIONS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { fetchKioskApplications, kioskApplicationsQueryKey } from '../api/public-forms-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const COLUMNS = [
  'name',
  'email',
  'phone',
  'address',
  'premises',
  'footfall',
  'power',
  'internet',
  'received',
] as const;

/** Kiosk applications: offers to host a kiosk from the home page's Host a kiosk form, read-only. */
export function KioskApplicationsSection() {
  const { t } = useTranslation('admin');
  const yesNo = (value: boolean): string => (value ? t('yes') : t('no'));
  const headingId = useId();
  const applications = useQuery({
    queryKey: kioskApplicationsQueryKey,
    queryFn: ({ signal }) => fetchKioskApplications(signal),
    ...loadOnOpen,
  });
  return (
    <AdminSection headingId={headingId} title={t('kiosks.heading')}>
      <ListState
        query={applications}
        loadingText={t('kiosks.loading')}
        failureText={messages.failedToLoadKioskApplications}
        emptyText={t('kiosks.empty')}
        isEmpty={(data) => data.length === 0}
      />
      {applications.isSuccess && applications.data.length > 0 ? (
        <AdminTable columns={COLUMNS.map((column) => t(`kiosks.columns.${column}`))}>
          {applications.data.map((application) => (
            <tr key={application.id}>
              <td translate="no" className={`${cellClass} font-medium text-slate-900`}>
                {application.name}
              </td>
              <td translate="no" className={`${cellClass} break-all`}>
                {application.email}
              </td>
              <td translate="no" className={`${cellClass} whitespace-nowrap`}>
                {application.phone}
              </td>
              <td translate="no" className={`${cellClass} max-w-xs`}>
                {application.address}
              </td>
              <td className={cellClass}>
                {(PREMISES_OPTIONS as readonly string[]).includes(application.premises) ? (
                  t(`kiosks.premisesOptions.${application.premises as (typeof PREMISES_OPTIONS)[number]}`)
                ) : (
                  <span translate="no">{application.premises}</span>
                )}
              </td>
              <td translate="no" className={cellClass}>
                {application.footfall}
              </td>
              <td className={cellClass}>{yesNo(application.power)}</td>
              <td className={cellClass}>{yesNo(application.internet)}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDate(application.created_at)}</td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
    </AdminSection>
  );
}
