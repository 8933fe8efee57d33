import { messages } from '@hasta/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../lib/api-client';
import { PasskeyCancelled, confirmWithPasskey, listPasskeys, passkeyKeys } from '../lib/passkeys';
import { translateMessage } from '../lib/server-message';
import { sendStepUpCode, verifyStepUpCode } from '../lib/palm-trust';
import type { StepUpPurpose, StepUpSent } from '../lib/palm-trust';
import { CodeChannelBadge, FormAlert, OtpField } from './form-field';
import { disabledClass, primaryButtonClass, secondaryButtonClass } from './ui-classes';

export interface StepUpCodeProps {
  purpose: StepUpPurpose;
  /** What the code lets the person do, e.g. "Before you register a palm, ...". */
  intro: ReactNode;
  /** The code was right: this session may act for 5 minutes (until `validUntil`). */
  onVerified: (validUntil: Date) => void;
}

/**
 * "Confirm it's you" (issue 21): a code to the signed-in owner's own phone, else email (the server chooses;
 * the page only shows where it went, as the transfer code step does), then the code. Resend after a minute.
 */
export function StepUpCode({ purpose, intro, onVerified }: StepUpCodeProps) {
  const { t } = useTranslation('app');
  const id = useId();
  const alertId = `${id}-alert`;
  const [sent, setSent] = useState<StepUpSent | null>(null);
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'verify' | 'passkey' | null>(null);
  const { t: commonText } = useTranslation();
  // A person with a passkey may use it instead of the code (issue 23).
  const passkeys = useQuery({ queryKey: passkeyKeys.list, queryFn: listPasskeys });
  const hasPasskey = (passkeys.data?.passkeys.length ?? 0) > 0;

  const confirmByPasskey = async (): Promise<void> => {
    if (busy !== null) return;
    setBusy('passkey');
    setError(null);
    try {
      const { validUntil } = await confirmWithPasskey(purpose);
      onVerified(validUntil ?? new Date());
    } catch (cause) {
      setError(
        cause instanceof PasskeyCancelled
          ? commonText('passkeys.cancelled')
          : errorMessage(cause, messages.passkeyNotVerified),
      );
      setBusy(null);
    }
  };

  const passkeyButton = hasPasskey ? (
    <button
      type="button"
      className={`${secondaryButtonClass} ${disabledClass}`}
      disabled={busy !== null}
      onClick={() => void confirmByPasskey()}
    >
      {busy === 'passkey' ? commonText('passkeys.using') : commonText('passkeys.useInstead')}
    </button>
  ) : null;

  const send = async (): Promise<void> => {
    if (busy !== null) return;
    setBusy('send');
    setError(null);
    try {
      setSent(await sendStepUpCode(purpose));
      setOtp('');
    } catch (cause) {
      setError(errorMessage(cause, messages.failedToSendVerificationCode));
    } finally {
      setBusy(null);
    }
  };

  const verify = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy !== null) return;
    if (!/^\d{6}$/.test(otp)) {
      setError(messages.invalidOtp);
      return;
    }
    setBusy('verify');
    setError(null);
    try {
      const answer = await verifyStepUpCode(purpose, otp);
      onVerified(new Date(answer.valid_until));
    } catch (cause) {
      setError(errorMessage(cause, messages.failedToVerifyOtp));
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        {t('stepUp.heading')}
      </h2>
      <div className="text-slate-800">{intro}</div>
      {sent === null ? (
        <>
          <FormAlert id={alertId} message={error} />
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={busy !== null}
              onClick={() => void send()}
            >
              {busy === 'send' ? t('stepUp.sending') : t('stepUp.send')}
            </button>
            {passkeyButton}
          </div>
        </>
      ) : (
        <>
          <p role="status" className="text-slate-800">
            {translateMessage(sent.message)}
          </p>
          <p className="text-sm text-slate-700">
            <CodeChannelBadge channel={sent.channel} className="mr-2" />
            {t('stepUp.sentTo', { to: sent.sent_to })}
          </p>
          <form noValidate className="space-y-4" onSubmit={(event) => void verify(event)}>
            <OtpField
              label={t('stepUp.code')}
              autoComplete="one-time-code"
              value={otp}
              invalid={error !== null}
              errorId={alertId}
              onCode={setOtp}
            />
            <FormAlert id={alertId} message={error} />
            <div className="flex flex-wrap gap-3">
              <button
                type="submit"
                className={`${primaryButtonClass} ${disabledClass}`}
                disabled={busy !== null}
              >
                {busy === 'verify' ? t('stepUp.verifying') : t('stepUp.verify')}
              </button>
              <button
                type="button"
                className={`${secondaryButtonClass} ${disabledClass}`}
                disabled={busy !== null}
                onClick={() => void send()}
              >
                {busy === 'send' ? t('stepUp.sending') : t('stepUp.resend')}
              </button>
              {passkeyButton}
            </div>
          </form>
        </>
      )}
    </section>
  );
}
