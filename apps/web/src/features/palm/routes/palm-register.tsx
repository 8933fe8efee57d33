import { PALM_REGISTRATION_REDIRECT_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { PALM_CONSENT_NOTICE } from '@hasta/contracts/palm';
import type { Hand, PalmScan } from '@hasta/contracts/palm';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';

import { Page } from '../../../components/page';
import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import type { PalmScanOutcome } from '../../../components/palm-scanner/palm-scanner';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { isAdmin, useStoredUser } from '../../../lib/auth-storage';
import { buildLoginPath } from '../../../lib/login-redirect';
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
import type { HandsRegistered } from '../utils/registration-texts';

type Phase =
  | { kind: 'choose' }
  | { kind: 'scan'; hand: Hand; attempt: number }
  | { kind: 'success'; hand: Hand }
  | { kind: 'error'; hand: Hand; attempt: number; message: string };

const HANDS: readonly Hand[] = ['left', 'right'];

/**
 * Palm Registration (spec §2.12, §4): per hand, not registered to registered, one hand at a time. Choosing a
 * hand opens the scanner once the person has read the consent notice and ticked "I agree"; success shows its
 * panel and redirects after 5 s (to /admin for an admin, else /user-dashboard); an error shows its message
 * and Try Again. In admin mode (`?admin_mode=true&user_id=…&user_email=…&hand=…`) the palm is registered for
 * that user.
 */
export function PalmRegisterRoute() {
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
    const answer = await registerPalm({ userId: targetId, hand, scan });
    return { title: successTexts(hand, admin).title, detail: answer.message };
  };

  const goBackButton = (
    <button type="button" className={secondaryButtonClass} onClick={goBack}>
      Go Back
    </button>
  );

  if (user === null) {
    return (
      <Page title="Palm Registration" lead="Register your left hand, your right hand, or both.">
        <div className={`${cardClass} max-w-2xl space-y-4`}>
          <p role="alert" className="text-slate-800">
            {messages.userNotFoundLogin}{' '}
            <Link to={buildLoginPath(location)} className={textLinkClass}>
              Login
            </Link>
          </p>
          {goBackButton}
        </div>
      </Page>
    );
  }

  const continueText = hands === null ? null : continueLabel(hands, admin);

  return (
    <Page title="Palm Registration" lead="Register your left hand, your right hand, or both.">
      <div className="max-w-2xl space-y-6">
        {params.adminMode && targetLabel !== null ? (
          <p className="rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950">
            Admin mode: registering a palm for <strong>{targetLabel}</strong>.
          </p>
        ) : null}

        {state.isPending ? (
          <p role="status" className="text-slate-600">
            Loading registration state...
          </p>
        ) : null}
        {state.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">
              {errorMessage(state.error, messages.userNotFoundLogin)}
            </p>
            <button type="button" className={secondaryButtonClass} onClick={() => void state.refetch()}>
              Retry
            </button>
          </div>
        ) : null}

        {hands === null ? null : (
          <section aria-label="Registration state" className={cardClass}>
            <RegistrationProgress hands={hands} />
            {shown.kind === 'choose' ? (
              <HandChoice hands={hands} onChoose={(hand) => setPhase({ kind: 'scan', hand, attempt: 0 })} />
            ) : null}
          </section>
        )}

        {hands !== null && shown.kind === 'scan' ? (
          <ScanStep
            hand={shown.hand}
            agreed={agreed}
            onAgree={setAgreed}
            onCancel={() => setPhase({ kind: 'choose' })}
          >
            <PalmScanner
              key={shown.attempt}
              purpose="register"
              hand={shown.hand}
              showSuccess={false}
              showError={false}
              errorFallback={messages.handScanRegistrationFailed}
              onScan={(scan) => register(shown.hand, scan)}
              onSuccess={() => {
                setPhase({ kind: 'success', hand: shown.hand });
                void queryClient.invalidateQueries({ queryKey: palmKeys.registrationState(targetId) });
              }}
              onError={(message) =>
                setPhase({ kind: 'error', hand: shown.hand, attempt: shown.attempt, message })
              }
            />
          </ScanStep>
        ) : null}

        {shown.kind === 'success' ? <SuccessPanel hand={shown.hand} admin={admin} /> : null}

        {shown.kind === 'error' ? (
          <section aria-label="Registration failed" className={`${cardClass} space-y-4`}>
            <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
              {shown.message}
            </p>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => setPhase({ kind: 'scan', hand: shown.hand, attempt: shown.attempt + 1 })}
            >
              Try Again
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

function RegistrationProgress({ hands }: { hands: HandsRegistered }) {
  const labelId = useId();
  const progress = registrationProgress(hands);
  return (
    <div>
      <p role="status" className="text-lg font-semibold text-slate-900">
        {registrationStatusText(hands)}
      </p>
      <div className="mt-3 flex items-center gap-3">
        <span id={labelId} className="sr-only">
          Registration progress
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
              {handButtonLabel(hand, hands)}
            </button>
          );
        })}
      </div>
      {both ? <p className="mt-3 text-slate-700">Both hands are already registered.</p> : null}
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
  const banner = scanningBanner(hand);
  return (
    <section aria-labelledby={headingId} className={`${cardClass} space-y-5`}>
      <div className="rounded-lg bg-emerald-50 px-4 py-3">
        <h2 id={headingId} className="text-lg font-semibold text-emerald-950">
          {banner.title}
        </h2>
        <p className="text-emerald-950">{banner.instruction}</p>
      </div>
      <div className="rounded-lg border border-slate-300 px-4 py-3">
        <p className="font-semibold text-slate-900">What is kept, and why</p>
        <p id={noticeId} className="mt-1 text-sm text-slate-700">
          {PALM_CONSENT_NOTICE}
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
            I agree
          </label>
        </div>
      </div>
      {agreed ? children : <p className="text-sm text-slate-700">{messages.palmConsentRequired}</p>}
      <button type="button" className={secondaryButtonClass} onClick={onCancel}>
        Cancel
      </button>
    </section>
  );
}

function SuccessPanel({ hand, admin }: { hand: Hand; admin: boolean }) {
  const texts = successTexts(hand, admin);
  return (
    <section aria-label="Registration complete" role="status" className={`${cardClass} text-center`}>
      <p className="text-2xl font-bold text-emerald-800">{texts.title}</p>
      <p className="mt-2 text-slate-800">{texts.detail}</p>
      <p className="mt-2 text-sm text-slate-600">{texts.redirect}</p>
    </section>
  );
}
