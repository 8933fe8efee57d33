import { messages } from '@hasta/contracts/messages';
import type { Hand } from '@hasta/contracts/palm';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { FormAlert, OtpField, TextField } from '../../../components/form-field';
import { PairingScreen } from '../../../components/pairing-screen';
import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import { MAIN_CONTENT_ID } from '../../../components/skip-link';
import { StepUpCode } from '../../../components/step-up-code';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { deviceStore } from '../../../lib/device-key';
import type { StoredDevice } from '../../../lib/device-key';
import { isDeviceGone, signedScan } from '../../../lib/device-session';
import { fetchThisDevice } from '../../../lib/devices-api';
import { fetchStepUpStatus } from '../../../lib/palm-trust';
import { translateMessage } from '../../../lib/server-message';
import {
  endKioskSession,
  fetchHands,
  kioskKeys,
  kioskLogin,
  registerOnKiosk,
  sendKioskLoginCode,
} from '../api/kiosk';
import { KioskLanguageSwitch } from '../components/kiosk-language-switch';
import { IdleWatch } from '../utils/idle-watch';

const HANDS: readonly Hand[] = ['left', 'right'];

/** Why the kiosk is back at its welcome screen (said there once). */
type Farewell = { kind: 'enrolled'; hand: Hand } | { kind: 'idle' } | { kind: 'signedOut' } | null;

type Step =
  | { kind: 'welcome'; farewell: Farewell }
  | { kind: 'sign-in' }
  | { kind: 'person' }
  | { kind: 'scan'; hand: Hand };

/** What the browser holds: not read yet, nothing (pair it), or its kiosk credentials. */
type Pairing = { kind: 'reading' } | { kind: 'unpaired' } | { kind: 'paired'; stored: StoredDevice };

/**
 * Kiosk mode (issue 22, `/kiosk`): a tablet at a kiosk of the locator where people register their palms.
 * Unpaired, the pairing screen (an admin's code from the Devices tab). Paired: a privacy notice (what is kept
 * and why), the person signs in with a code sent to their phone, confirms it is them if the server asks,
 * chooses a hand and agrees, and the scanner (guide box only, as kiosks hold the hand in a drawn box) scans;
 * the scan is signed by the kiosk's own device key. The person is signed out after each enrolment, after
 * 60 s without a touch, and whenever the page opens. No site navigation; English and Hindi.
 */
export function KioskRoute() {
  const [pairing, setPairing] = useState<Pairing>({ kind: 'reading' });
  const [gone, setGone] = useState(false);

  useEffect(() => {
    let live = true;
    deviceStore()
      .read('kiosk')
      .then(
        (stored) => {
          if (live) setPairing(stored === null ? { kind: 'unpaired' } : { kind: 'paired', stored });
        },
        () => {
          if (live) setPairing({ kind: 'unpaired' });
        },
      );
    return () => {
      live = false;
    };
  }, []);

  const forget = useCallback(() => {
    void deviceStore().remove('kiosk');
    setGone(false);
    setPairing({ kind: 'unpaired' });
  }, []);

  if (pairing.kind === 'reading') return <KioskFrame>{null}</KioskFrame>;
  if (pairing.kind === 'unpaired') {
    return (
      <KioskFrame>
        <PairingScreen
          kind="kiosk"
          slot="kiosk"
          onPaired={(stored) => {
            setGone(false);
            setPairing({ kind: 'paired', stored });
          }}
        />
      </KioskFrame>
    );
  }
  return (
    <KioskFrame>
      {gone ? (
        <KioskGone onForget={forget} />
      ) : (
        <PairedKiosk stored={pairing.stored} onGone={() => setGone(true)} />
      )}
    </KioskFrame>
  );
}

/** The whole screen: the language switch and the kiosk's content, large type, nothing to navigate away to. */
function KioskFrame({ children }: { children: ReactNode }) {
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6 text-lg focus:outline-none sm:px-8 sm:py-10"
    >
      <div className="flex justify-end">
        <KioskLanguageSwitch />
      </div>
      {children}
    </main>
  );
}

/** The kiosk was removed by an admin: it can do nothing until paired again. */
function KioskGone({ onForget }: { onForget: () => void }) {
  const { t } = useTranslation('kiosk');
  return (
    <section className={`${cardClass} space-y-4`} aria-labelledby="kiosk-gone-heading">
      <h1 id="kiosk-gone-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {t('title')}
      </h1>
      <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
        {t('gone')}
      </p>
      <button type="button" className={secondaryButtonClass} onClick={onForget}>
        {t('pairAgain')}
      </button>
    </section>
  );
}

function PairedKiosk({ stored, onGone }: { stored: StoredDevice; onGone: () => void }) {
  const { t } = useTranslation(['kiosk', 'app']);
  const [step, setStep] = useState<Step>({ kind: 'welcome', farewell: null });
  const device = useQuery({
    queryKey: [...kioskKeys.device, stored.device.id],
    queryFn: ({ signal }) => fetchThisDevice(stored.token, signal),
    retry: false,
  });
  useEffect(() => {
    if (device.isError && isDeviceGone(device.error)) onGone();
  }, [device.isError, device.error, onGone]);

  // Whoever was signed in when the page (re)opened is signed out: a kiosk never starts with someone's session.
  useEffect(() => {
    void endKioskSession();
  }, []);

  const signOut = useCallback((farewell: Farewell) => {
    void endKioskSession();
    setStep({ kind: 'welcome', farewell });
  }, []);

  // 60 s without a touch, a key or a scroll while someone uses the kiosk: they are signed out.
  const watch = useRef<IdleWatch | null>(null);
  const inUse = step.kind !== 'welcome';
  useEffect(() => {
    if (!inUse) return undefined;
    const idle = new IdleWatch(() => signOut({ kind: 'idle' }));
    watch.current = idle;
    idle.touch();
    const touch = (): void => idle.touch();
    const events = ['pointerdown', 'keydown', 'scroll', 'input'] as const;
    for (const name of events) window.addEventListener(name, touch, { passive: true, capture: true });
    return () => {
      idle.stop();
      watch.current = null;
      for (const name of events) window.removeEventListener(name, touch, { capture: true });
    };
  }, [inUse, signOut]);

  const place = device.data?.device.kiosk_name ?? device.data?.device.name ?? stored.device.name;

  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <p className="text-base font-medium text-emerald-800">{t('kioskAt', { place })}</p>
        <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">{t('title')}</h1>
      </header>

      {step.kind === 'welcome' ? (
        <Welcome farewell={step.farewell} onStart={() => setStep({ kind: 'sign-in' })} />
      ) : null}
      {step.kind === 'sign-in' ? (
        <SignIn
          deviceToken={stored.token}
          onSignedIn={() => setStep({ kind: 'person' })}
          onCancel={() => signOut(null)}
        />
      ) : null}
      {step.kind === 'person' ? (
        <PersonStep
          onChoose={(hand) => setStep({ kind: 'scan', hand })}
          onSignOut={() => signOut({ kind: 'signedOut' })}
        />
      ) : null}
      {step.kind === 'scan' ? (
        <ScanStep
          hand={step.hand}
          stored={stored}
          onEnrolled={() => signOut({ kind: 'enrolled', hand: step.hand })}
          onGone={onGone}
          onCancel={() => setStep({ kind: 'person' })}
          onSignOut={() => signOut({ kind: 'signedOut' })}
        />
      ) : null}
    </div>
  );
}

/** The privacy notice and Start; after a person is done, what happened (and that they are signed out). */
function Welcome({ farewell, onStart }: { farewell: Farewell; onStart: () => void }) {
  const { t } = useTranslation(['kiosk', 'app']);
  return (
    <>
      {farewell === null ? null : (
        <p role="status" className="rounded-lg bg-emerald-50 px-4 py-3 font-medium text-emerald-950">
          {farewell.kind === 'enrolled'
            ? t('farewell.enrolled', { hand: t(`hands.${farewell.hand}`) })
            : t(`farewell.${farewell.kind}`)}
        </p>
      )}
      <section aria-labelledby="kiosk-privacy-heading" className={`${cardClass} space-y-3`}>
        <h2 id="kiosk-privacy-heading" className="text-xl font-semibold text-slate-900">
          {t('privacy.heading')}
        </h2>
        <p className="text-slate-800">{t('app:palmConsentNotice')}</p>
        <ul className="list-disc space-y-1 pl-6 text-base text-slate-800">
          <li>{t('privacy.signIn')}</li>
          <li>{t('privacy.device')}</li>
          <li>{t('privacy.signedOut')}</li>
        </ul>
      </section>
      <button type="button" className={`${primaryButtonClass} w-full py-4 text-xl`} onClick={onStart}>
        {t('start')}
      </button>
    </>
  );
}

/** The person's phone, a code sent to it, the code: their session on this kiosk. */
function SignIn({
  deviceToken,
  onSignedIn,
  onCancel,
}: {
  deviceToken: string;
  onSignedIn: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('kiosk');
  const alertId = useId();
  const [phone, setPhone] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (phone.trim() === '') {
      setError(messages.invalidPhone);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await sendKioskLoginCode(phone.trim());
      setSentTo(phone.trim());
    } catch (cause) {
      setError(errorMessage(cause, messages.failedToSendOtpRetry));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (sentTo === null) return;
    if (otp.length !== 6) {
      setError(messages.enterSixDigitCode);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await kioskLogin(sentTo, otp, deviceToken);
      onSignedIn();
    } catch (cause) {
      setError(errorMessage(cause, messages.invalidOtp));
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="kiosk-sign-in-heading" className={`${cardClass} space-y-4`}>
      <h2 id="kiosk-sign-in-heading" className="text-2xl font-semibold text-slate-900">
        {t('signIn.heading')}
      </h2>
      {sentTo === null ? (
        <form noValidate className="space-y-4" onSubmit={(event) => void send(event)}>
          <p className="text-slate-800">{t('signIn.phoneIntro')}</p>
          <TextField
            label={t('signIn.phoneLabel')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            value={phone}
            invalid={error !== null}
            errorId={alertId}
            onChange={(event) => setPhone(event.target.value)}
          />
          <FormAlert id={alertId} message={error} />
          <button
            type="submit"
            className={`${primaryButtonClass} ${disabledClass} w-full py-3 text-lg`}
            disabled={busy}
          >
            {busy ? t('signIn.sending') : t('signIn.send')}
          </button>
        </form>
      ) : (
        <form noValidate className="space-y-4" onSubmit={(event) => void verify(event)}>
          <p className="text-slate-800">{t('signIn.codeSent', { to: sentTo })}</p>
          <OtpField
            label={t('signIn.codeLabel')}
            autoComplete="one-time-code"
            value={otp}
            invalid={error !== null}
            errorId={alertId}
            onCode={setOtp}
          />
          <FormAlert id={alertId} message={error} />
          <button
            type="submit"
            className={`${primaryButtonClass} ${disabledClass} w-full py-3 text-lg`}
            disabled={busy}
          >
            {busy ? t('signIn.verifying') : t('signIn.verify')}
          </button>
        </form>
      )}
      <button type="button" className={secondaryButtonClass} onClick={onCancel}>
        {t('cancel')}
      </button>
    </section>
  );
}

/**
 * The signed-in person: "Confirm it's you" if this session has no live palm_enrol step-up yet (the server's
 * rule for registering one's own palm), then which hand to register (a registered one cannot be chosen).
 */
function PersonStep({ onChoose, onSignOut }: { onChoose: (hand: Hand) => void; onSignOut: () => void }) {
  const { t } = useTranslation(['kiosk', 'palmScan']);
  const [confirmed, setConfirmed] = useState(false);
  const stepUp = useQuery({
    queryKey: ['kiosk', 'step-up'],
    queryFn: ({ signal }) => fetchStepUpStatus('palm_enrol', signal),
    refetchOnMount: 'always',
    gcTime: 0,
  });
  const hands = useQuery({
    queryKey: kioskKeys.hands,
    queryFn: ({ signal }) => fetchHands(signal),
    refetchOnMount: 'always',
    gcTime: 0,
  });
  const ready = confirmed || stepUp.data?.verified === true;
  const failure = stepUp.error ?? hands.error;

  return (
    <section aria-labelledby="kiosk-person-heading" className={`${cardClass} space-y-5`}>
      <h2 id="kiosk-person-heading" className="text-2xl font-semibold text-slate-900">
        {t('person.heading')}
      </h2>
      {failure === null ? null : (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
          {errorMessage(failure, messages.internal)}
        </p>
      )}
      {stepUp.isPending || hands.isPending ? (
        <p role="status" className="text-slate-700">
          {t('person.loading')}
        </p>
      ) : null}
      {stepUp.isSuccess && !ready ? (
        <StepUpCode
          purpose="palm_enrol"
          intro={<p>{t('person.confirmIntro')}</p>}
          onVerified={() => setConfirmed(true)}
        />
      ) : null}
      {ready && hands.isSuccess ? (
        <div className="space-y-3">
          <p className="text-slate-800">{t('person.chooseHand')}</p>
          <div className="grid gap-3 sm:grid-cols-2">
            {HANDS.map((hand) => {
              const done =
                hand === 'left' ? hands.data.left_hand_registered : hands.data.right_hand_registered;
              return (
                <button
                  key={hand}
                  type="button"
                  className={`${done ? secondaryButtonClass : primaryButtonClass} ${disabledClass} py-4 text-lg`}
                  disabled={done}
                  onClick={() => onChoose(hand)}
                >
                  {done
                    ? t('person.registered', { hand: t(`hands.${hand}`) })
                    : t('person.register', { hand: t(`hands.${hand}`) })}
                </button>
              );
            })}
          </div>
          {hands.data.left_hand_registered && hands.data.right_hand_registered ? (
            <p className="text-slate-800">{t('person.bothDone')}</p>
          ) : null}
        </div>
      ) : null}
      <button type="button" className={secondaryButtonClass} onClick={onSignOut}>
        {t('signOut')}
      </button>
    </section>
  );
}

/** The consent (ticked before the scanner opens), then the guide-box scanner; the scan signed by the kiosk. */
function ScanStep({
  hand,
  stored,
  onEnrolled,
  onGone,
  onCancel,
  onSignOut,
}: {
  hand: Hand;
  stored: StoredDevice;
  onEnrolled: () => void;
  onGone: () => void;
  onCancel: () => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation(['kiosk', 'app', 'palmScan']);
  const noticeId = useId();
  const checkboxId = useId();
  const [agreed, setAgreed] = useState(false);
  return (
    <section aria-labelledby="kiosk-scan-heading" className={`${cardClass} space-y-5`}>
      <div className="rounded-lg bg-emerald-50 px-4 py-3">
        <h2 id="kiosk-scan-heading" className="text-2xl font-semibold text-emerald-950">
          {t('scan.heading', { hand: t(`hands.${hand}`) })}
        </h2>
        <p className="text-emerald-950">{t('scan.instruction', { hand: t(`hands.${hand}`) })}</p>
      </div>
      <div className="rounded-lg border border-slate-300 px-4 py-3">
        <p className="font-semibold text-slate-900">{t('palmScan:register.keptTitle')}</p>
        <p id={noticeId} className="mt-1 text-base text-slate-700">
          {t('app:palmConsentNotice')}
        </p>
        <div className="mt-3 flex items-center gap-3">
          <input
            id={checkboxId}
            type="checkbox"
            className="h-6 w-6 accent-emerald-700"
            checked={agreed}
            aria-describedby={noticeId}
            onChange={(event) => setAgreed(event.target.checked)}
          />
          <label htmlFor={checkboxId} className="font-medium text-slate-900">
            {t('palmScan:register.agree')}
          </label>
        </div>
      </div>
      {agreed ? (
        <PalmScanner
          purpose="register"
          hand={hand}
          guideBoxOnly
          showSuccess={false}
          errorFallback={messages.handScanRegistrationFailed}
          onScan={async (scan) => {
            try {
              const signed = await signedScan(stored, { purpose: 'enrol' }, scan.frames);
              const answer = await registerOnKiosk({ hand, scan, signed });
              return { title: answer.message, detail: '' };
            } catch (error) {
              if (isDeviceGone(error)) onGone();
              throw error;
            }
          }}
          onSuccess={onEnrolled}
        />
      ) : (
        <p className="text-base text-slate-700">{translateMessage(messages.palmConsentRequired)}</p>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          {t('scan.otherHand')}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onSignOut}>
          {t('signOut')}
        </button>
      </div>
    </section>
  );
}
