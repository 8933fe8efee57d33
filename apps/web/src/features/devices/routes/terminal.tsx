import { messages } from '@hasta/contracts/messages';
import type { PalmConfirmation, PalmScan } from '@hasta/contracts/palm';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { PairingScreen } from '../../../components/pairing-screen';
import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import {
  cardClass,
  disabledClass,
  focusRing,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { deviceStore } from '../../../lib/device-key';
import type { StoredDevice } from '../../../lib/device-key';
import { isDeviceGone, signedScan } from '../../../lib/device-session';
import { deviceHeaders, fetchThisDevice } from '../../../lib/devices-api';
import { formatMoney } from '../../../lib/i18n-format';
import { currentLanguage, setLanguage } from '../../../lib/i18n';
import { LANGUAGES, isLanguage } from '../../../lib/i18n-resources';
import { takeTerminalPayment, terminalKeys } from '../api/terminal';
import type { TerminalPaid, TerminalWaitsForCode } from '../api/terminal';
import { AmountPad } from '../components/amount-pad';
import { TerminalHistory } from '../components/terminal-history';
import {
  clearPendingPayment,
  markUncertain,
  paymentKeyFor,
  readPendingPayment,
  writePendingPayment,
} from '../utils/pending-payment';

/** What the terminal gives the code step of decision 022 (the palm feature's PalmPaymentCode, composed in). */
export interface TerminalCodeStepProps {
  confirmation: PalmConfirmation;
  message: string;
  onPaid: (answer: TerminalPaid) => void;
  onClosed: (message: string) => void;
  /** The terminal's device header: it confirms without a person's session. */
  headers: Record<string, string>;
  /** Right under the terminal's h1. */
  headingLevel: 2;
}

/** A lost network is retried this often, at most this many times, before the scanner shows the failure. */
const RETRY_AFTER_MS = 5_000;
const MAX_SEND_ATTEMPTS = 60;

type Step =
  | { kind: 'amount'; notice: string | null }
  | { kind: 'scan'; amountText: string; resumed: boolean; attempt: number }
  | { kind: 'code'; amountText: string; waiting: TerminalWaitsForCode }
  | { kind: 'done'; amountText: string; payer: string | null };

/** The answer never arrived (no network, the server unreachable): the payment may or may not be made. */
const isLost = (error: unknown): boolean => error instanceof ApiError && error.status === 0;

/** The payer as the server lets the store see them ("A. a•••@d•••"), or null. */
function payerOf(answer: TerminalPaid): string | null {
  const { from_user_name: name, from_user_email: address } = answer.transaction;
  if (address === null) return null;
  return name === undefined ? address : `${name} ${address}`;
}

/**
 * Terminal mode (issue 22, `/terminal`): a store's counter. Unpaired, it shows the pairing screen; paired,
 * full screen, large type and no site navigation: the store's name, the amount on a numeric pad, the palm
 * scanner, the result ('Payment received ₹…', or the payer's code of decision 022), and this terminal's last
 * payments. A payment sent without an answer keeps its Idempotency-Key in sessionStorage until one comes: a
 * lost network is said on screen and retried under the same key; after a reload the payer scans again under
 * the same key, and the server answers the payment it already made, so it is taken once.
 */
export function TerminalRoute({ codeStep: CodeStep }: { codeStep: ComponentType<TerminalCodeStepProps> }) {
  const { t } = useTranslation(['devices', 'messages']);
  const [stored, setStored] = useState<StoredDevice | null | undefined>(undefined);
  const [revoked, setRevoked] = useState(false);

  useEffect(() => {
    let live = true;
    deviceStore()
      .read('terminal')
      .then(
        (value) => live && setStored(value),
        () => live && setStored(null),
      );
    return () => {
      live = false;
    };
  }, []);

  const forget = (): void => {
    clearPendingPayment();
    setRevoked(false);
    setStored(null);
    void deviceStore().remove('terminal');
  };

  let body;
  if (stored === undefined) {
    body = (
      <p role="status" className="text-xl text-slate-700">
        {t('terminal.loading')}
      </p>
    );
  } else if (stored === null) {
    body = (
      <PairingScreen kind="terminal" slot="terminal" onPaired={setStored}>
        <LanguageChoice />
      </PairingScreen>
    );
  } else if (revoked) {
    body = (
      <section className={`${cardClass} mx-auto max-w-lg space-y-4`} aria-labelledby="terminal-revoked">
        <h1 id="terminal-revoked" className="text-2xl font-bold text-slate-900">
          {t('terminal.title')}
        </h1>
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-lg font-medium text-red-800">
          {t('terminal.revoked')}
        </p>
        <button type="button" className={`${primaryButtonClass} py-3 text-lg`} onClick={forget}>
          {t('terminal.unpair')}
        </button>
      </section>
    );
  } else {
    body = <PairedTerminal stored={stored} codeStep={CodeStep} onRevoked={() => setRevoked(true)} />;
  }
  return <main className="min-h-dvh bg-slate-100 px-3 py-4 text-slate-900 sm:px-6 sm:py-6">{body}</main>;
}

/** English or Hindi: the terminal has no site navigation, so it carries its own switch. */
function LanguageChoice() {
  const { t, i18n } = useTranslation('devices');
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t('terminal.language')}
      </label>
      <select
        id={id}
        value={currentLanguage(i18n.language)}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setLanguage(event.target.value);
        }}
        className={`${focusRing} rounded-md border border-slate-400 bg-white px-2 py-1.5 text-base text-slate-900`}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function PairedTerminal({
  stored,
  codeStep: CodeStep,
  onRevoked,
}: {
  stored: StoredDevice;
  codeStep: ComponentType<TerminalCodeStepProps>;
  onRevoked: () => void;
}) {
  const { t } = useTranslation(['devices', 'messages']);
  const queryClient = useQueryClient();
  const me = useQuery({
    queryKey: terminalKeys.me(stored.token),
    queryFn: ({ signal }) => fetchThisDevice(stored.token, signal),
    retry: (count, error) => !isDeviceGone(error) && count < 2,
  });
  useEffect(() => {
    if (isDeviceGone(me.error)) onRevoked();
  }, [me.error, onRevoked]);
  const storeName = me.data?.device.store_name ?? stored.device.storeName ?? stored.device.name;

  // A payment sent before a reload that got no answer: the same payment, scanned again under its key.
  // It may have been paid: until an answer says it was, its key stays (markUncertain).
  const [step, setStep] = useState<Step>(() => {
    const pending = readPendingPayment();
    if (pending === null) return { kind: 'amount', notice: null };
    writePendingPayment(markUncertain(pending));
    return { kind: 'scan', amountText: pending.amountText, resumed: true, attempt: 0 };
  });
  const [offline, setOffline] = useState(false);
  // A payment on its way: it cannot be cancelled here any more (its answer decides).
  const [sending, setSending] = useState(false);
  const retryNow = useRef<(() => void) | null>(null);
  const answered = useRef<TerminalPaid | TerminalWaitsForCode | null>(null);

  const paid = useCallback(
    (amountText: string, answer: TerminalPaid): void => {
      setStep({ kind: 'done', amountText, payer: payerOf(answer) });
      void queryClient.invalidateQueries({ queryKey: terminalKeys.payments(stored.token) });
    },
    [queryClient, stored.token],
  );

  /** Until the network is back (the browser says so), the Retry button, or RETRY_AFTER_MS. */
  const waitToRetry = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        window.clearTimeout(timer);
        window.removeEventListener('online', done);
        retryNow.current = null;
        resolve();
      };
      const timer = window.setTimeout(done, RETRY_AFTER_MS);
      window.addEventListener('online', done);
      retryNow.current = done;
    });

  const send = async (amountText: string, scan: PalmScan): Promise<{ title: string; detail: string }> => {
    // The frames stay here until the answer: the scanner empties its own copy once this returns.
    const frames = [...scan.frames];
    const pending = readPendingPayment();
    const idempotencyKey = paymentKeyFor(amountText, pending);
    writePendingPayment({
      amountText,
      idempotencyKey,
      sentAt: new Date().toISOString(),
      uncertain: pending?.idempotencyKey === idempotencyKey && pending.uncertain === true,
    });
    setSending(true);
    try {
      return await sendUnder(amountText, scan, frames, idempotencyKey);
    } finally {
      setSending(false);
    }
  };

  const sendUnder = async (
    amountText: string,
    scan: PalmScan,
    frames: string[],
    idempotencyKey: string,
  ): Promise<{ title: string; detail: string }> => {
    let lastError: unknown = null;
    for (let attempt = 0; attempt < MAX_SEND_ATTEMPTS; attempt += 1) {
      try {
        // A new challenge each time: the server answers a used key with the payment it made.
        const signed = await signedScan(stored, { purpose: 'pay', amount: Number(amountText) }, frames);
        const answer = await takeTerminalPayment({
          amountText,
          scan: { ...scan, frames },
          signed,
          idempotencyKey,
        });
        clearPendingPayment();
        setOffline(false);
        answered.current = answer;
        return { title: answer.message, detail: '' };
      } catch (error) {
        lastError = error;
        if (!isLost(error)) break;
        const pending = readPendingPayment();
        if (pending !== null) writePendingPayment(markUncertain(pending));
        setOffline(true);
        await waitToRetry();
      }
    }
    setOffline(false);
    // A refusal of a key that never lost an answer: nothing was paid, the next scan is a new payment. A key
    // whose earlier answer was lost stays: that payment may have been made (its rescan answers it once).
    if (!isLost(lastError) && readPendingPayment()?.uncertain !== true) clearPendingPayment();
    if (isDeviceGone(lastError)) onRevoked();
    throw lastError;
  };

  const headers = deviceHeaders(stored.token);

  return (
    <div className="mx-auto grid max-w-6xl gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <header className="flex flex-wrap items-center justify-between gap-3 lg:col-span-2">
        <div>
          <p className="text-sm font-medium tracking-wide text-slate-600 uppercase">{t('terminal.title')}</p>
          <h1
            className="text-3xl font-bold break-words text-slate-900 sm:text-4xl"
            data-testid="terminal-store"
            translate="no"
          >
            {storeName}
          </h1>
        </div>
        <LanguageChoice />
      </header>

      <section className={`${cardClass} space-y-5 p-4 sm:p-6`} aria-label={t('terminal.amountLabel')}>
        {step.kind === 'amount' ? (
          <AmountPad
            notice={step.notice}
            storeName={storeName}
            onCharge={(amountText) => setStep({ kind: 'scan', amountText, resumed: false, attempt: 0 })}
          />
        ) : null}

        {step.kind === 'scan' ? (
          <div className="space-y-4">
            <p className="text-2xl font-bold text-emerald-950 sm:text-3xl" data-testid="terminal-prompt">
              {t('terminal.scanFor', { amount: formatMoney(step.amountText), store: storeName })}
            </p>
            {step.resumed ? (
              <p className="rounded-lg bg-amber-50 px-4 py-3 text-amber-950">
                {t('terminal.pendingNote', { amount: formatMoney(step.amountText) })}
              </p>
            ) : null}
            {offline ? (
              <div
                role="alert"
                className="space-y-3 rounded-lg bg-amber-100 px-4 py-3 text-lg text-amber-950"
              >
                <p className="font-semibold">{t('terminal.offline')}</p>
                <button type="button" className={secondaryButtonClass} onClick={() => retryNow.current?.()}>
                  {t('terminal.retryNow')}
                </button>
              </div>
            ) : null}
            <PalmScanner
              key={step.attempt}
              purpose="authenticate"
              showSuccess={false}
              errorFallback={messages.transactionFailed}
              onScan={(scan) => send(step.amountText, scan)}
              onSuccess={() => {
                const answer = answered.current;
                answered.current = null;
                if (answer === null) return;
                if ('confirmation_required' in answer) {
                  setStep({ kind: 'code', amountText: step.amountText, waiting: answer });
                } else paid(step.amountText, answer);
              }}
            />
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass} py-3 text-lg`}
              disabled={sending}
              onClick={() => {
                clearPendingPayment();
                setStep({ kind: 'amount', notice: null });
              }}
            >
              {t('terminal.cancel')}
            </button>
          </div>
        ) : null}

        {step.kind === 'code' ? (
          <CodeStep
            confirmation={step.waiting.confirmation}
            message={step.waiting.message}
            headers={headers}
            headingLevel={2}
            onPaid={(answer) => paid(step.amountText, answer)}
            onClosed={(message) => setStep({ kind: 'amount', notice: message })}
          />
        ) : null}

        {step.kind === 'done' ? (
          <div role="status" className="space-y-4 text-center">
            <p className="text-3xl font-bold text-emerald-800 sm:text-4xl" data-testid="terminal-result">
              {step.payer === null
                ? t('terminal.received', { amount: formatMoney(step.amountText) })
                : t('terminal.receivedFrom', { amount: formatMoney(step.amountText), payer: step.payer })}
            </p>
            <p className="text-lg text-slate-700">{t('messages:paymentProcessed')}</p>
            <button
              type="button"
              className={`${primaryButtonClass} w-full py-4 text-xl`}
              onClick={() => setStep({ kind: 'amount', notice: null })}
            >
              {t('terminal.next')}
            </button>
          </div>
        ) : null}
      </section>

      <TerminalHistory token={stored.token} />
      {me.isError && !isDeviceGone(me.error) ? (
        <p className="text-sm text-slate-600 lg:col-span-2">
          {errorMessage(me.error, messages.networkUnavailable)}
        </p>
      ) : null}
    </div>
  );
}
