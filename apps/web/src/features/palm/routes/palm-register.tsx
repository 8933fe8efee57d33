import { PALM_REGISTRATION_REDIRECT_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import type { Hand, PalmScan } from '@hasta/contracts/palm';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';

import { CodeChannelBadge } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { translateMessage } from '../../../lib/server-message';
import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import { StepUpCode } from '../../../components/step-up-code';
import type { PalmScanOutcome } from '../../../components/palm-scanner/palm-scanner';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { BrowserDeviceGate, browserDeviceKey } from '../../../components/browser-device-gate';
import { errorMessage } from '../../../lib/api-client';
import { browserDeviceName, signedScan, withBrowserDevice } from '../../../lib/device-session';
import { isAdmin, useStoredUser } from '../../../lib/auth-storage';
import { formatTime } from '../../../lib/i18n-format';
import { buildLoginPath } from '../../../lib/login-redirect';
import { fetchEnrolmentRequest, fetchStepUpStatus, palmTrustKeys } from '../../../lib/palm-trust';
import type { EnrolmentRequest } from '../../../lib/palm-trust';
import { fetchRegistrationState, palmKeys, registerPalm } from '../api/palm';
import {
  continueLabel,
  handButtonLabel,
  readRegisterParams,
  registrationProgress,
  registrationStatusText,
  scanningBanner,
  successTexts,
} from '../utils/registration-texts';
import type { HandsRegistered, TranslateRegister } from '../utils/registration-texts';

type Phase =
  | { kind: 'choose' }
  | { kind: 'scan'; hand: Hand; attempt: number }
  | { kind: 'waiting'; hand: Hand; attempt: number; request: EnrolmentRequest }
  | { kind: 'success'; hand: Hand }
  | { kind: 'error'; hand: Hand; attempt: number; message: string };

const HANDS: readonly Hand[] = ['left', 'right'];
/** How often the page asks whether the owner answered an admin's registration. */
const APPROVAL_POLL_MS = 3000;

/**
 * Palm Registration (spec §2.12, §4): per hand, not registered to registered, one hand at a time. Choosing a
 * hand opens the scanner once the person has read the consent notice and ticked "I agree"; success shows its
 * panel and redirects after 5 s (to /admin for an admin, else /user-dashboard); an error shows its message
 * and Try Again. One's own palm needs "Confirm it's you" first (issue 21: a code to the owner's own phone or
 * email, this session may then register for 5 minutes). In admin mode
 * (`?admin_mode=true&user_id=…&user_email=…&hand=…`) the scan starts a registration for that user that waits
 * for their approval on their own device: the page shows where their code went and asks every 3 s until
 * they approve (success), decline or it expires (error, Try Again).
 */
export function PalmRegisterRoute() {
  const { t } = useTranslation(['app', 'meta', 'messages']);
  const { t: palmText } = useTranslation('palmScan');
  const registerText: TranslateRegister = (key) => palmText(`register.${key}`);
  const user = useStoredUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const params = useMemo(() => readRegisterParams(searchParams), [searchParams]);
  const admin = user !== null && isAdmin(user);
  // The target user is user_id (admin mode), else the logged-in user (`null`: the caller, by session).
  const targetId = params.adminMode ? params.userId : null;
  const targetLabel = params.userEmail ?? params.userId;
  const [phase, setPhase] = useState<Phase>(() =>
    params.hand === null ? { kind: 'choose' } : { kind: 'scan', hand: params.hand, attempt: 0 },
  );
  const [agreed, setAgreed] = useState(false);
  // One's own palm: this session's step-up, verified until this time.
  const ownPalm = targetId === null || targetId === user?.id;
  const [verifiedUntil, setVerifiedUntil] = useState<Date | null>(null);
  // A session that confirmed within the last 5 minutes (the page reloaded) need not ask for another code.
  const stepUp = useQuery({
    queryKey: palmTrustKeys.stepUp('palm_enrol'),
    queryFn: ({ signal }) => fetchStepUpStatus('palm_enrol', signal),
    enabled: user !== null && ownPalm,
    refetchOnMount: 'always',
  });
  const confirmed = !ownPalm || verifiedUntil !== null || stepUp.data?.verified === true;
  const stepUpLost = (): void => {
    setVerifiedUntil(null);
    queryClient.setQueryData(palmTrustKeys.stepUp('palm_enrol'), { verified: false, valid_until: null });
  };
  // Set by a scan the server answered with a request waiting for the owner.
  const pendingRequest = useRef<EnrolmentRequest | null>(null);

  const state = useQuery({
    queryKey: palmKeys.registrationState(targetId),
    queryFn: ({ signal }) => fetchRegistrationState(targetId, signal),
    enabled: user !== null,
    refetchOnMount: 'always',
  });
  const hands: HandsRegistered | null =
    state.data === undefined
      ? null
      : { left: state.data.left_hand_registered, right: state.data.right_hand_registered };

  const successRedirect = admin ? '/admin' : '/user-dashboard';
  useEffect(() => {
    if (phase.kind !== 'success') return undefined;
    const timer = window.setTimeout(() => void navigate(successRedirect), PALM_REGISTRATION_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [phase.kind, navigate, successRedirect]);

  const goBack = (): void => {
    if (admin) void navigate('/admin');
    else if (location.key !== 'default') void navigate(-1);
    else void navigate(user === null ? '/' : '/user-dashboard');
  };

  // A hand asked for in the link but already registered: back to the choice.
  const shown: Phase =
    phase.kind === 'scan' && hands !== null && hands[phase.hand] ? { kind: 'choose' } : phase;

  const register = async (hand: Hand, scan: PalmScan): Promise<PalmScanOutcome> => {
    // This browser signs the scan as the signed-in person's device (made on its first scan; issue 22).
    const answer = await withBrowserDevice(
      { slot: `personal:${user?.id ?? ''}`, kind: 'personal', name: browserDeviceName() },
      async (device) =>
        registerPalm({
          userId: targetId,
          hand,
          scan,
          signed: await signedScan(device, { purpose: 'enrol' }, scan.frames),
        }),
    );
    void queryClient.invalidateQueries({ queryKey: browserDeviceKey(`personal:${user?.id ?? ''}`) });
    if ('approval_required' in answer) pendingRequest.current = answer.request;
    return { title: successTexts(hand, admin, registerText).title, detail: answer.message };
  };

  const goBackButton = (
    <button type="button" className={secondaryButtonClass} onClick={goBack}>
      {t('app:palmRegister.goBack')}
    </button>
  );

  if (user === null) {
    return (
      <Page title={t('meta:pages.palmRegister.title')} lead={t('app:palmRegister.lead')}>
        <div className={`${cardClass} max-w-2xl space-y-4`}>
          <p role="alert" className="text-slate-800">
            {t('messages:userNotFoundLogin')}{' '}
            <Link to={buildLoginPath(location)} className={textLinkClass}>
              {t('app:palmRegister.login')}
            </Link>
          </p>
          {goBackButton}
        </div>
      </Page>
    );
  }

  const continueText = hands === null ? null : continueLabel(hands, admin, registerText);

  return (
    <Page title={t('meta:pages.palmRegister.title')} lead={t('app:palmRegister.lead')}>
      <div className="max-w-2xl space-y-6">
        {params.adminMode && targetLabel !== null ? (
          <p className="rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950">
            <Trans
              t={palmText}
              i18nKey="register.adminMode"
              values={{ target: targetLabel }}
              components={{ strong: <strong /> }}
            />
          </p>
        ) : null}

        {state.isPending ? (
          <p role="status" className="text-slate-600">
            {palmText('register.loading')}
          </p>
        ) : null}
        {state.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">
              {errorMessage(state.error, messages.userNotFoundLogin)}
            </p>
            <button type="button" className={secondaryButtonClass} onClick={() => void state.refetch()}>
              {palmText('register.retry')}
            </button>
          </div>
        ) : null}

        {hands !== null && !confirmed && stepUp.data !== undefined ? (
          <div className={cardClass}>
            <StepUpCode
              purpose="palm_enrol"
              intro={<p>{palmText('register.stepUpIntro')}</p>}
              onVerified={setVerifiedUntil}
            />
          </div>
        ) : null}

        {hands === null ? null : (
          <section aria-label={palmText('register.stateLabel')} className={cardClass}>
            <RegistrationProgress hands={hands} />
            {shown.kind === 'choose' && confirmed ? (
              <HandChoice hands={hands} onChoose={(hand) => setPhase({ kind: 'scan', hand, attempt: 0 })} />
            ) : null}
          </section>
        )}

        {hands !== null && shown.kind === 'scan' && confirmed ? (
          <ScanStep
            hand={shown.hand}
            agreed={agreed}
            onAgree={setAgreed}
            onCancel={() => setPhase({ kind: 'choose' })}
          >
            <OwnerDeviceGate needed={!ownPalm} slot={`personal:${user.id}`}>
              <PalmScanner
                key={shown.attempt}
                purpose="register"
                hand={shown.hand}
                showSuccess={false}
                showError={false}
                errorFallback={messages.handScanRegistrationFailed}
                onScan={(scan) => register(shown.hand, scan)}
                onSuccess={() => {
                  const request = pendingRequest.current;
                  pendingRequest.current = null;
                  if (request !== null) {
                    setPhase({ kind: 'waiting', hand: shown.hand, attempt: shown.attempt, request });
                    return;
                  }
                  setPhase({ kind: 'success', hand: shown.hand });
                  void queryClient.invalidateQueries({ queryKey: palmKeys.registrationState(targetId) });
                }}
                onError={(message) => {
                  // The step-up ran out (5 minutes): confirm again before the next scan.
                  if (message === messages.stepUpRequired) stepUpLost();
                  setPhase({ kind: 'error', hand: shown.hand, attempt: shown.attempt, message });
                }}
              />
            </OwnerDeviceGate>
          </ScanStep>
        ) : null}

        {shown.kind === 'waiting' ? (
          <WaitingForOwner
            request={shown.request}
            targetLabel={targetLabel}
            onApproved={() => {
              setPhase({ kind: 'success', hand: shown.hand });
              void queryClient.invalidateQueries({ queryKey: palmKeys.registrationState(targetId) });
            }}
            onClosed={(message) =>
              setPhase({ kind: 'error', hand: shown.hand, attempt: shown.attempt, message })
            }
          />
        ) : null}

        {shown.kind === 'success' ? (
          <SuccessPanel
            hand={shown.hand}
            admin={admin}
            hands={hands === null ? { left: false, right: false } : hands}
            onRegisterOther={(other) => setPhase({ kind: 'scan', hand: other, attempt: 0 })}
          />
        ) : null}

        {shown.kind === 'error' ? (
          <section aria-label={palmText('register.failedLabel')} className={`${cardClass} space-y-4`}>
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
              {shown.message}
            </p>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => setPhase({ kind: 'scan', hand: shown.hand, attempt: shown.attempt + 1 })}
            >
              {palmText('register.tryAgain')}
            </button>
          </section>
        ) : null}

        <div className="flex flex-wrap gap-3">
          {continueText === null ? null : (
            <Link to={admin ? '/admin' : '/user-dashboard'} className={primaryButtonClass}>
              {continueText}
            </Link>
          )}
          {goBackButton}
        </div>
      </div>
    </Page>
  );
}

/**
 * Admin mode: the admin's own browser signs the scans as the admin's device (issue 22), made after the admin's
 * own step-up; one's own palm already asks for the step-up before the scan.
 */
function OwnerDeviceGate({
  needed,
  slot,
  children,
}: {
  needed: boolean;
  slot: `personal:${string}`;
  children: ReactNode;
}) {
  const { t } = useTranslation('devices');
  if (!needed) return <>{children}</>;
  return (
    <BrowserDeviceGate slot={slot} intro={<p>{t('thisBrowser.enrolIntro')}</p>}>
      {children}
    </BrowserDeviceGate>
  );
}

function RegistrationProgress({ hands }: { hands: HandsRegistered }) {
  const { t } = useTranslation('palmScan');
  const labelId = useId();
  const progress = registrationProgress(hands);
  return (
    <div>
      <p role="status" className="text-lg font-semibold text-slate-900">
        {registrationStatusText(hands, (key) => t(`register.${key}`))}
      </p>
      <div className="mt-3 flex items-center gap-3">
        <span id={labelId} className="sr-only">
          {t('register.progressLabel')}
        </span>
        <div
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          className="h-3 flex-1 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full rounded-full bg-emerald-600" style={{ width: `${progress}%` }} />
        </div>
        <span className="w-12 text-right text-sm font-semibold text-slate-800" data-testid="palm-progress">
          {progress}%
        </span>
      </div>
    </div>
  );
}

function HandChoice({ hands, onChoose }: { hands: HandsRegistered; onChoose: (hand: Hand) => void }) {
  const { t } = useTranslation('palmScan');
  const both = hands.left && hands.right;
  return (
    <div className="mt-6">
      <div className="flex flex-wrap gap-3">
        {HANDS.map((hand) => {
          const done = both || hands[hand];
          return (
            <button
              key={hand}
              type="button"
              className={`${done ? secondaryButtonClass : primaryButtonClass} ${disabledClass}`}
              disabled={done}
              onClick={() => onChoose(hand)}
            >
              {handButtonLabel(hand, hands, (key) => t(`register.${key}`))}
            </button>
          );
        })}
      </div>
      {both ? <p className="mt-3 text-slate-700">{t('register.bothAlready')}</p> : null}
    </div>
  );
}

interface ScanStepProps {
  hand: Hand;
  agreed: boolean;
  onAgree: (agreed: boolean) => void;
  onCancel: () => void;
  /** The scanner, shown once the person agreed. */
  children: ReactNode;
}

/** The banner, the consent notice (ticked before the first scan), then the scanner. */
function ScanStep({ hand, agreed, onAgree, onCancel, children }: ScanStepProps) {
  const headingId = useId();
  const noticeId = useId();
  const checkboxId = useId();
  const { t } = useTranslation(['palmScan', 'app']);
  const banner = scanningBanner(hand, (key) => t(`register.${key}`));
  return (
    <section aria-labelledby={headingId} className={`${cardClass} space-y-5`}>
      <div className="rounded-lg bg-emerald-50 px-4 py-3">
        <h2 id={headingId} className="text-lg font-semibold text-emerald-950">
          {banner.title}
        </h2>
        <p className="text-emerald-950">{banner.instruction}</p>
      </div>
      <div className="rounded-lg border border-slate-300 px-4 py-3">
        <p className="font-semibold text-slate-900">{t('register.keptTitle')}</p>
        <p id={noticeId} className="mt-1 text-sm text-slate-700">
          {t('app:palmConsentNotice')}
        </p>
        <div className="mt-3 flex items-center gap-2">
          <input
            id={checkboxId}
            type="checkbox"
            className="h-4 w-4 accent-emerald-700"
            checked={agreed}
            aria-describedby={noticeId}
            onChange={(event) => onAgree(event.target.checked)}
          />
          <label htmlFor={checkboxId} className="font-medium text-slate-900">
            {t('register.agree')}
          </label>
        </div>
      </div>
      {agreed ? (
        children
      ) : (
        <p className="text-sm text-slate-700">{translateMessage(messages.palmConsentRequired)}</p>
      )}
      <button type="button" className={secondaryButtonClass} onClick={onCancel}>
        {t('register.cancel')}
      </button>
    </section>
  );
}

const CLOSED_MESSAGES: Readonly<Record<'declined' | 'expired' | 'failed', string>> = {
  declined: messages.palmEnrolmentDeclined,
  expired: messages.palmEnrolmentRequestClosed,
  failed: messages.palmEnrolmentRequestFailed,
};

/** An admin's registration waiting for the owner: asks every 3 s until they answer or it expires. */
function WaitingForOwner({
  request,
  targetLabel,
  onApproved,
  onClosed,
}: {
  request: EnrolmentRequest;
  targetLabel: string | null;
  onApproved: () => void;
  onClosed: (message: string) => void;
}) {
  const latest = useQuery({
    queryKey: palmTrustKeys.enrolmentRequest(request.id),
    queryFn: ({ signal }) => fetchEnrolmentRequest(request.id, signal),
    refetchInterval: APPROVAL_POLL_MS,
    initialData: request,
  });
  const status = latest.data.status;
  useEffect(() => {
    if (status === 'approved') onApproved();
    else if (status !== 'waiting') onClosed(CLOSED_MESSAGES[status]);
  }, [status, onApproved, onClosed]);
  const { t } = useTranslation('palmScan');
  return (
    <section aria-label={t('register.waitingLabel')} className={`${cardClass} space-y-3`}>
      <p role="status" className="text-xl font-semibold text-slate-900">
        {t('register.waitingTitle')}
      </p>
      <p className="text-slate-800">
        {translateMessage(messages.palmEnrolmentApprovalSent)}{' '}
        <Trans
          t={t}
          i18nKey="register.nothingUntil"
          values={{ owner: targetLabel ?? t('register.theOwner') }}
          components={{ strong: <strong /> }}
        />
      </p>
      <p className="text-sm text-slate-700">
        <CodeChannelBadge channel={request.channel} className="mr-2" />
        {t('register.codeSent', { to: request.sent_to, time: formatTime(request.expires_at) })}
      </p>
    </section>
  );
}

/**
 * Registration's success (spec §2.12), agreeing with the progress above it (issue 27): how many hands are
 * registered now and, with one, that the other can be registered now (which stays here) or later.
 */
function SuccessPanel({
  hand,
  admin,
  hands,
  onRegisterOther,
}: {
  hand: Hand;
  admin: boolean;
  /** The hands registered as last loaded (the one just registered counts as registered). */
  hands: HandsRegistered;
  onRegisterOther: (other: Hand) => void;
}) {
  const { t } = useTranslation('palmScan');
  const texts = successTexts(hand, admin, (key) => t(`register.${key}`));
  const other: Hand = hand === 'left' ? 'right' : 'left';
  const both = hands[other];
  return (
    <section aria-label={t('register.completeLabel')} className={`${cardClass} text-center`}>
      <div role="status">
        <p className="text-2xl font-bold text-emerald-800">{texts.title}</p>
        <p className="mt-2 text-slate-800">{texts.detail}</p>
        <p className="mt-2 font-medium text-slate-900" data-testid="palm-registered-count">
          {both ? t('registered.both') : t('registered.oneOfTwo', { other: t(`registered.${other}`) })}
        </p>
        <p className="mt-2 text-sm text-slate-600">{texts.redirect}</p>
      </div>
      {both ? null : (
        <button
          type="button"
          className={`${secondaryButtonClass} mt-4`}
          onClick={() => onRegisterOther(other)}
        >
          {t('registered.registerOther', { other: t(`registered.${other}`) })}
        </button>
      )}
    </section>
  );
}
