import { RECENT_HISTORY_COUNT } from '@hasta/contracts/constants';
import { HISTORY_PAGE_SIZE, type HistoryEntry } from '@hasta/contracts/wallet';
import { messages } from '@hasta/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-hot-toast';

import { ChangePasswordDialog } from '../../../components/change-password-dialog';
import { Page } from '../../../components/page';
import { Tabs } from '../../../components/tabs';
import { WaitingPalmRegistrations } from '../../../components/waiting-palm-registrations';
import { cardClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { useStoredUser } from '../../../lib/auth-storage';
import { formatMoney } from '../../../lib/i18n-format';
import { dashboardQueryKey, fetchDashboard, fetchDashboardHistory } from '../api/wallet';
import type { DashboardUser } from '../api/wallet';
import { HistoryList } from '../components/history-list';
import { LoadMore } from '../components/load-more';
import { useNotMe } from '../components/not-me';

const NOTIFICATIONS_KEY = 'notificationsActive';
const MASK = '••••••';

const TAB_KEYS = ['wallet', 'history', 'consent', 'rewards'] as const;
type TabKey = (typeof TAB_KEYS)[number];

function readNotifications(): boolean {
  try {
    return window.localStorage.getItem(NOTIFICATIONS_KEY) === 'true';
  } catch {
    return false;
  }
}

function hasPalmHash(hash: string | null): hash is string {
  return hash !== null && hash.trim() !== '' && hash !== 'null' && hash !== 'undefined';
}

/**
 * The seam for the Consent tab: given the dashboard's palm hash, it shows the palm consent and its actions,
 * and calls `onChanged` after a change. The consent feature provides it (composed by the router).
 */
export interface ConsentTabProps {
  palmHash: string | null;
  onChanged: () => void;
}
export type ConsentTabComponent = ComponentType<ConsentTabProps>;

/** The seam for the Rewards tab (issue 24): the rewards feature provides it; `onRedeemed` refreshes the wallet. */
export type RewardsTabComponent = ComponentType<{ onRedeemed: () => void }>;

/** Guarded by RequireUser, so a stored user exists (spec §2.11). */
export function UserDashboardRoute({
  consentTab: ConsentTab,
  rewardsTab: RewardsTab,
}: {
  consentTab: ConsentTabComponent;
  rewardsTab: RewardsTabComponent;
}) {
  const { t } = useTranslation(['wallet', 'app', 'messages']);
  const tabs = TAB_KEYS.map((key) => ({ key, label: t(`dashboard.tabs.${key}`) }));
  const user = useStoredUser();
  const queryClient = useQueryClient();
  const userId = user === null ? null : String(user.id);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [notifications, setNotifications] = useState(readNotifications);
  const [tab, setTab] = useState<TabKey>('wallet');

  const dashboard = useQuery({
    queryKey: dashboardQueryKey(userId ?? ''),
    queryFn: ({ signal }) => {
      if (userId === null) throw new Error(messages.userNotLoggedIn);
      return fetchDashboard(userId, signal);
    },
    enabled: userId !== null,
    refetchOnMount: 'always',
  });

  const data = dashboard.data;
  const name = data?.username || user?.username || data?.email || user?.email || t('dashboard.someone');

  const toggleNotifications = (): void => {
    const next = !notifications;
    setNotifications(next);
    try {
      window.localStorage.setItem(NOTIFICATIONS_KEY, next ? 'true' : 'false');
    } catch {
      // storage disabled: the toggle still works for this visit
    }
    toast.success(next ? messages.notificationsOn : messages.notificationsOff);
  };

  return (
    <Page title={t('dashboard.title')} lead={t('dashboard.welcome', { name })}>
      <div className="mb-6 flex flex-wrap items-center justify-end gap-3">
        <button
          type="button"
          role="switch"
          aria-checked={notifications}
          className={secondaryButtonClass}
          onClick={toggleNotifications}
        >
          {t('dashboard.notifications', { state: notifications ? t('dashboard.on') : t('dashboard.off') })}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          aria-haspopup="dialog"
          onClick={() => setSettingsOpen(true)}
        >
          <GearIcon />
          {t('dashboard.settings')}
        </button>
      </div>
      <ChangePasswordDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />

      {userId === null ? (
        <p role="alert" className="text-red-800">
          {t('messages:userNotLoggedIn')}
        </p>
      ) : null}
      {dashboard.isPending && userId !== null ? (
        <p role="status" className="text-slate-600">
          {t('dashboard.loading')}
        </p>
      ) : null}
      {dashboard.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
          <p className="font-medium text-red-800">
            {errorMessage(dashboard.error, messages.failedToLoadDashboard)}
          </p>
          <button type="button" className={secondaryButtonClass} onClick={() => void dashboard.refetch()}>
            {t('app:actions.retry')}
          </button>
        </div>
      ) : null}
      {data === undefined ? null : (
        <>
          <WaitingPalmRegistrations
            onChanged={() =>
              void queryClient.invalidateQueries({ queryKey: dashboardQueryKey(userId ?? '') })
            }
          />
          <ProfileCard user={data} />
          <div className="mt-8">
            <Tabs label={t('dashboard.sections')} tabs={tabs} active={tab} onChange={setTab}>
              {tab === 'wallet' ? <WalletTab user={data} /> : null}
              {/* Loaded pages start again whenever the dashboard's newest page changes. */}
              {tab === 'history' ? <HistoryTab key={dashboard.dataUpdatedAt} user={data} /> : null}
              {tab === 'consent' ? (
                <ConsentTab
                  palmHash={data.palm_hash}
                  onChanged={() =>
                    void queryClient.invalidateQueries({ queryKey: dashboardQueryKey(userId ?? '') })
                  }
                />
              ) : null}
              {tab === 'rewards' ? (
                <RewardsTab
                  onRedeemed={() =>
                    void queryClient.invalidateQueries({ queryKey: dashboardQueryKey(userId ?? '') })
                  }
                />
              ) : null}
            </Tabs>
          </div>
        </>
      )}
    </Page>
  );
}

/**
 * The palm in plain words (issue 27: "Palm identifier N/A" was jargon): which hands are registered. The hash
 * itself is on the Consent tab.
 */
function ProfileCard({ user }: { user: DashboardUser }) {
  const { t } = useTranslation('wallet');
  const { left, right } = user.handinfo;
  const registered = left || right;
  const hands =
    left && right
      ? t('dashboard.bothHands')
      : left
        ? t('dashboard.leftHand')
        : right
          ? t('dashboard.rightHand')
          : hasPalmHash(user.palm_hash)
            ? t('dashboard.bothHands')
            : t('dashboard.noPalm');
  return (
    <section
      aria-label={t('dashboard.profile')}
      className={`${cardClass} flex flex-wrap items-center justify-between gap-4`}
    >
      <div>
        <p className="text-sm text-slate-600">{t('dashboard.palm')}</p>
        <p className="font-medium text-slate-900" data-testid="palm-hands">
          {hands}
        </p>
      </div>
      <Link to="/palm-register" className={registered ? secondaryButtonClass : primaryButtonClass}>
        {registered ? t('dashboard.registered') : t('dashboard.registerPalm')}
      </Link>
    </section>
  );
}

function WalletTab({ user }: { user: DashboardUser }) {
  const { t } = useTranslation('wallet');
  const [visible, setVisible] = useState(true);
  const recent = user.user_history.slice(0, RECENT_HISTORY_COUNT);
  return (
    <div className="space-y-8">
      <section aria-labelledby="balance-heading" className={cardClass}>
        <h2 id="balance-heading" className="text-sm font-medium text-slate-600">
          {t('dashboard.balance')}
        </h2>
        <div className="mt-2 flex flex-wrap items-center gap-4">
          <p className="text-3xl font-bold text-slate-900" data-testid="balance">
            {visible ? formatMoney(user.balance) : MASK}
          </p>
          <button
            type="button"
            className={secondaryButtonClass}
            aria-pressed={!visible}
            onClick={() => setVisible((shown) => !shown)}
          >
            {visible ? t('dashboard.hideBalance') : t('dashboard.showBalance')}
          </button>
        </div>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/transfer" className={primaryButtonClass}>
            {t('dashboard.sendMoney')}
          </Link>
          <Link to="/receive" className={secondaryButtonClass}>
            {t('dashboard.receiveMoney')}
          </Link>
          <Link to="/qr-scan" className={secondaryButtonClass}>
            {t('dashboard.scanQr')}
          </Link>
          <Link to="/history" className={secondaryButtonClass}>
            {t('dashboard.history')}
          </Link>
        </div>
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading" className="text-xl font-semibold text-slate-900">
          {t('dashboard.recent')}
        </h2>
        <div className="mt-3">
          {recent.length === 0 ? (
            <p className="text-slate-600">{t('dashboard.noHistory')}</p>
          ) : (
            <HistoryList entries={recent} viewer={user} />
          )}
        </div>
      </section>
    </div>
  );
}

/** The full list: the dashboard's newest entries, then older pages on request. */
function HistoryTab({ user }: { user: DashboardUser }) {
  const { t } = useTranslation('wallet');
  const [older, setOlder] = useState<HistoryEntry[]>([]);
  const [next, setNext] = useState(user.user_history_next);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const notMe = useNotMe(user.id);
  const entries = older.length === 0 ? user.user_history : [...user.user_history, ...older];

  const loadOlder = async (): Promise<void> => {
    if (next === null || loading) return;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchDashboardHistory(user.id, next, HISTORY_PAGE_SIZE);
      setOlder((shown) => [...shown, ...page.items]);
      setNext(page.next);
    } catch (cause) {
      setError(errorMessage(cause, messages.failedToLoadDashboard));
    } finally {
      setLoading(false);
    }
  };

  return (
    <section aria-labelledby="all-history-heading">
      <h2 id="all-history-heading" className="text-xl font-semibold text-slate-900">
        {t('dashboard.allHistory')}
      </h2>
      <div className="mt-3">
        {entries.length === 0 ? (
          <p className="text-slate-600">{t('dashboard.noHistory')}</p>
        ) : (
          <HistoryList entries={entries} viewer={user} notMe={notMe} />
        )}
        {notMe.dialog}
        <LoadMore hasMore={next !== null} loading={loading} error={error} onLoad={() => void loadOlder()} />
      </div>
    </section>
  );
}

function GearIcon() {
  return (
    <svg
      className="h-4 w-4"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="3" />
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z"
      />
    </svg>
  );
}
