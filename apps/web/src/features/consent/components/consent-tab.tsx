import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import { StepUpCode } from '../../../components/step-up-code';
import {
  cardClass,
  dangerButtonClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/i18n-format';
import { fetchPalmPayStatus, palmTrustKeys, unfreezePalmPay } from '../../../lib/palm-trust';
import { changeConsent, consentQueryKey, fetchConsent } from '../api/consent';
import type { ConsentChange, ConsentEvent, ConsentResponse } from '../api/consent';

/** Characters of a palm hash shown in the preview. */
const HASH_PREVIEW_CHARS = 16;

/** What the user dashboard gives its Consent tab (the wallet's `ConsentTabProps`). */
export interface ConsentTabProps {
  /** The dashboard's palm hash: 'Active & Verified' when there is one (spec §2.11). */
  palmHash: string | null;
  /** Consent or palm data changed: the dashboard should load again. */
  onChanged: () => void;
}

function hasPalmHash(hash: string | null): hash is string {
  return hash !== null && hash.trim() !== '' && hash !== 'null' && hash !== 'undefined';
}

const preview = (hash: string): string =>
  hash.length > HASH_PREVIEW_CHARS ? `${hash.slice(0, HASH_PREVIEW_CHARS)}…` : hash;

/**
 * The Consent tab (spec §2.11, and the DPDP Act 2023: consent per purpose, withdrawn as easily as given,
 * data erased on request): whether palm payments are active, the hash preview, the registered hands, each
 * consent event with a link to verify its receipt in the public log, and Withdraw consent, Give consent
 * again and Erase palm data, each confirmed first.
 */
export function ConsentTab({ palmHash, onChanged }: ConsentTabProps) {
  const { t } = useTranslation(['consent', 'app']);
  const headingId = useId();
  const queryClient = useQueryClient();
  // The dialog keeps its last change while it closes, so its title never goes blank.
  const [dialog, setDialog] = useState<{ open: boolean; change: ConsentChange }>({
    open: false,
    change: 'withdraw',
  });
  const confirm = (change: ConsentChange): void => setDialog({ open: true, change });
  const closeDialog = (): void => setDialog((shown) => ({ ...shown, open: false }));
  const consent = useQuery({
    queryKey: consentQueryKey,
    queryFn: ({ signal }) => fetchConsent(signal),
    refetchOnMount: 'always',
  });
  const change = useMutation({
    mutationFn: changeConsent,
    onSuccess: (answer) => {
      closeDialog();
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: consentQueryKey });
      onChanged();
    },
    onError: (error) => {
      closeDialog();
      toast.error(errorMessage(error, messages.loginRequestFailed));
    },
  });

  const hash = hasPalmHash(palmHash) ? palmHash : null;
  const status = consent.data?.status;
  const withdrawn = status === 'withdrawn';
  const headline = withdrawn
    ? t('headlineWithdrawn')
    : hash !== null
      ? t('headlineActive')
      : t('headlineNone');

  return (
    <section aria-labelledby={headingId} className={`${cardClass} space-y-6`}>
      <PalmPayPaused />
      <div>
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          {t('heading')}
        </h2>
        <p
          className={`mt-3 text-lg font-semibold ${withdrawn ? 'text-amber-800' : hash !== null ? 'text-emerald-800' : 'text-slate-900'}`}
          data-testid="consent-status"
        >
          {headline}
        </p>
        {withdrawn ? <p className="mt-1 text-slate-700">{t('stopped')}</p> : null}
        <div className="mt-4">
          <p className="text-sm text-slate-600">{t('hashPreview')}</p>
          <p className="font-mono break-all text-slate-900" data-testid="consent-hash">
            {hash === null ? t('noBiometric') : preview(hash)}
          </p>
        </div>
        <p className="mt-4 text-sm text-slate-700">{t('onlyHash')}</p>
      </div>

      {consent.isPending ? (
        <p role="status" className="text-slate-600">
          {t('loading')}
        </p>
      ) : null}
      {consent.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
          <p className="font-medium text-red-800">
            {errorMessage(consent.error, messages.loginRequestFailed)}
          </p>
          <button type="button" className={secondaryButtonClass} onClick={() => void consent.refetch()}>
            {t('app:actions.retry')}
          </button>
        </div>
      ) : null}
      {consent.data === undefined ? null : (
        <ConsentDetails
          consent={consent.data}
          busy={change.isPending}
          onWithdraw={() => confirm('withdraw')}
          onRestore={() => confirm('restore')}
          onErase={() => confirm('erase')}
        />
      )}

      <Modal open={dialog.open} title={t(`titles.${dialog.change}`)} onClose={closeDialog}>
        <div className="space-y-4">
          <ConfirmText change={dialog.change} />
          <button
            type="button"
            className={`${dialog.change === 'restore' ? primaryButtonClass : dangerButtonClass} ${disabledClass}`}
            disabled={change.isPending}
            onClick={() => change.mutate(dialog.change)}
          >
            {change.isPending ? t('saving') : t(`buttons.${dialog.change}`)}
          </button>
        </div>
      </Modal>
    </section>
  );
}

function ConfirmText({ change }: { change: ConsentChange }) {
  const { t } = useTranslation(['consent', 'app']);
  if (change === 'withdraw') return <p>{t('withdrawText')}</p>;
  if (change === 'restore') {
    return (
      <>
        <p>{t('app:palmConsentNotice')}</p>
        <p>{t('restoreText')}</p>
      </>
    );
  }
  return <p>{t('eraseText')}</p>;
}

interface ConsentDetailsProps {
  consent: ConsentResponse;
  busy: boolean;
  onWithdraw: () => void;
  onRestore: () => void;
  onErase: () => void;
}

function ConsentDetails({ consent, busy, onWithdraw, onRestore, onErase }: ConsentDetailsProps) {
  const { t } = useTranslation(['consent', 'app']);
  const handName = (hand: 'left' | 'right'): string => t(`app:hands.${hand}`);
  const eventLabel = (type: ConsentEvent['type']): string => t(`events.${type}`);
  const handsId = useId();
  const eventsId = useId();
  return (
    <>
      <div>
        <h3 id={handsId} className="font-semibold text-slate-900">
          {t('registeredHands')}
        </h3>
        {consent.hands.length === 0 ? (
          <p className="mt-2 text-slate-700">{t('noHand')}</p>
        ) : (
          <ul aria-labelledby={handsId} className="mt-2 space-y-2">
            {consent.hands.map((hand) => (
              <li key={hand.hand} className="rounded-lg bg-slate-50 px-3 py-2">
                <span className="font-medium text-slate-900">{handName(hand.hand)}</span>
                <span className="ml-2 font-mono text-sm break-all text-slate-800">
                  {preview(hand.palm_hash)}
                </span>
                <span className="block text-sm text-slate-600">
                  {t('registeredAt', { when: formatDateTime(hand.registered_at) })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="flex flex-wrap gap-3">
        {consent.status === 'active' ? (
          <button
            type="button"
            className={`${secondaryButtonClass} ${disabledClass}`}
            disabled={busy}
            onClick={onWithdraw}
          >
            {t('withdraw')}
          </button>
        ) : null}
        {consent.status === 'withdrawn' ? (
          <button
            type="button"
            className={`${primaryButtonClass} ${disabledClass}`}
            disabled={busy}
            onClick={onRestore}
          >
            {t('restore')}
          </button>
        ) : null}
        {consent.hands.length > 0 ? (
          <button
            type="button"
            className={`${dangerButtonClass} ${disabledClass}`}
            disabled={busy}
            onClick={onErase}
          >
            {t('erase')}
          </button>
        ) : null}
        {consent.status === 'none' ? (
          <Link to="/palm-register" className={primaryButtonClass}>
            {t('registerPalm')}
          </Link>
        ) : null}
      </div>

      <div>
        <h3 id={eventsId} className="font-semibold text-slate-900">
          {t('record')}
        </h3>
        <p className="mt-1 text-sm text-slate-700">{t('recordIntro')}</p>
        {consent.events.length === 0 ? (
          <p className="mt-2 text-slate-700">{t('noEvents')}</p>
        ) : (
          <ul
            aria-labelledby={eventsId}
            className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200"
          >
            {consent.events.map((event) => (
              <li key={event.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <div>
                  <p className="font-medium text-slate-900">
                    {event.hand === null
                      ? eventLabel(event.type)
                      : t('eventHand', {
                          event: eventLabel(event.type),
                          hand: handName(event.hand).toLocaleLowerCase(),
                        })}
                  </p>
                  <p className="text-sm text-slate-600">{formatDateTime(event.created_at)}</p>
                </div>
                <Link
                  to={`/verify?id=${encodeURIComponent(event.id)}`}
                  className={`${textLinkClass} text-sm`}
                >
                  {t('verifyReceipt')}
                  <span className="sr-only">
                    {t('verifyFor', {
                      event: eventLabel(event.type).toLocaleLowerCase(),
                      when: formatDateTime(event.created_at),
                    })}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

/**
 * Palm pay paused ("Not me", issue 21): a banner saying so and since when, and "Turn palm pay back on",
 * which needs a fresh code to the person's own phone or email. Shows nothing while palm pay is on.
 */
function PalmPayPaused() {
  const { t } = useTranslation('consent');
  const queryClient = useQueryClient();
  const [turningOn, setTurningOn] = useState(false);
  const status = useQuery({
    queryKey: palmTrustKeys.payStatus,
    queryFn: ({ signal }) => fetchPalmPayStatus(signal),
    refetchOnMount: 'always',
  });
  const unfreeze = useMutation({
    mutationFn: unfreezePalmPay,
    onSuccess: (answer) => {
      setTurningOn(false);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: palmTrustKeys.payStatus });
    },
    onError: (error) => {
      setTurningOn(false);
      toast.error(errorMessage(error, messages.loginRequestFailed));
    },
  });
  if (status.data === undefined || !status.data.frozen) return null;
  return (
    <div
      role="region"
      aria-label={t('pausedLabel')}
      className="space-y-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-4"
    >
      <p className="font-semibold text-amber-950">{t('pausedTitle')}</p>
      <p className="text-amber-950">
        {status.data.frozen_at === null
          ? t('pausedBody')
          : t('pausedSince', { when: formatDateTime(status.data.frozen_at) })}
      </p>
      {turningOn ? (
        <div className="rounded-lg bg-white px-4 py-4">
          <StepUpCode
            purpose="palm_unfreeze"
            intro={<p>{t('turnOnIntro')}</p>}
            onVerified={() => unfreeze.mutate()}
          />
        </div>
      ) : (
        <button
          type="button"
          className={`${primaryButtonClass} ${disabledClass}`}
          disabled={unfreeze.isPending}
          onClick={() => setTurningOn(true)}
        >
          {t('turnOn')}
        </button>
      )}
    </div>
  );
}
