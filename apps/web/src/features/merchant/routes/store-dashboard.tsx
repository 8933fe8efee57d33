import { messages } from '@hasta/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { Tabs } from '../../../components/tabs';
import { cardClass, secondaryButtonClass, textLinkClass } from '../../../components/ui-classes';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { fetchSummary, merchantKeys } from '../api/merchant';
import { AcceptPalmTab } from '../components/accept-palm-tab';
import type { PalmPaymentScanner } from '../components/accept-palm-tab';
import { GenerateQrTab } from '../components/generate-qr-tab';
import { PaymentsTab } from '../components/payments-tab';
import { SettingsTab } from '../components/settings-tab';
import { SummaryFigures } from '../components/summary-figures';
import { TerminalsTab } from '../components/terminals-tab';
import { WithdrawTab } from '../components/withdraw-tab';

const TAB_KEYS = ['payments', 'accept-palm', 'generate-qr', 'withdraw', 'settings', 'terminals'] as const;
type TabKey = (typeof TAB_KEYS)[number];

/** For a signed-in account that is not a merchant: whom the page is for, and how a store gets one. */
export function NotAMerchantRoute() {
  const { t } = useTranslation(['merchant', 'messages']);
  return (
    <Page title={t('title')} lead={t('lead')}>
      <div className={`${cardClass} max-w-2xl`}>
        <p className="text-slate-700">
          {t('messages:merchantOnly')} {t('notMerchant')}
        </p>
        <p className="mt-4 flex flex-wrap gap-4">
          <Link to="/contact" className={textLinkClass}>
            {t('registerVendor')}
          </Link>
          <Link to="/user-dashboard" className={textLinkClass}>
            {t('yourDashboard')}
          </Link>
        </p>
      </div>
    </Page>
  );
}

interface StoreDashboardRouteProps {
  /** The palm scanner for Accept Palm, once the palm feature provides one; without it the tab says so. */
  palmScanner?: PalmPaymentScanner;
}

/**
 * The merchant dashboard (spec §2.16, §3): the store's figures and its tabs (the Terminals tab: issue 22), all from the server for the
 * signed-in store (the server refuses every call from anyone else). Each tab loads its data when it opens.
 */
export function StoreDashboardRoute({ palmScanner }: StoreDashboardRouteProps) {
  const { t } = useTranslation(['merchant', 'app']);
  const tabs = TAB_KEYS.map((key) => ({ key, label: t(`tabs.${key}`) }));
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabKey>('payments');
  const [qrAmount, setQrAmount] = useState('');
  const summary = useQuery({
    queryKey: merchantKeys.summary,
    queryFn: ({ signal }) => fetchSummary(signal),
    refetchOnMount: 'always',
  });

  if (summary.error instanceof ApiError && summary.error.status === 403) return <NotAMerchantRoute />;
  const data = summary.data;

  return (
    <Page title={t('title')} lead={data === undefined ? t('lead') : t('welcome', { store: data.store_name })}>
      {summary.isPending ? (
        <p role="status" className="text-slate-600">
          {t('loading')}
        </p>
      ) : null}
      {summary.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
          <p className="font-medium text-red-800">
            {errorMessage(summary.error, messages.failedToLoadDashboard)}
          </p>
          <button type="button" className={secondaryButtonClass} onClick={() => void summary.refetch()}>
            {t('app:actions.retry')}
          </button>
        </div>
      ) : null}
      {data === undefined ? null : (
        <>
          <SummaryFigures summary={data} />
          <div className="mt-10">
            <Tabs
              label={t('tabsLabel')}
              tabs={tabs}
              active={tab}
              onChange={(next) => {
                setTab(next);
                setQrAmount('');
                void summary.refetch();
              }}
            >
              {tab === 'payments' ? <PaymentsTab /> : null}
              {tab === 'accept-palm' ? (
                <AcceptPalmTab
                  scanner={palmScanner}
                  storeName={data?.store_name ?? ''}
                  onUseQr={(amountText) => {
                    setQrAmount(amountText);
                    setTab('generate-qr');
                  }}
                  onPaid={() => void queryClient.invalidateQueries({ queryKey: merchantKeys.all })}
                />
              ) : null}
              {tab === 'generate-qr' ? (
                <GenerateQrTab storeName={data.store_name} initialAmount={qrAmount} />
              ) : null}
              {tab === 'withdraw' ? <WithdrawTab availableBalance={data.available_balance} /> : null}
              {tab === 'settings' ? <SettingsTab /> : null}
              {tab === 'terminals' ? <TerminalsTab /> : null}
            </Tabs>
          </div>
        </>
      )}
    </Page>
  );
}
