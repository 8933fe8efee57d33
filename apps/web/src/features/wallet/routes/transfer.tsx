import { OTP_RESEND_COOLDOWN_MS, TRANSFER_REDIRECT_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { paiseToRupeesText, parseRupees } from '@hasta/ledger/money';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-hot-toast';

import {
  AmountField,
  CodeChannelBadge,
  FormAlert,
  OtpField,
  TextField,
} from '../../../components/form-field';
import { Page } from '../../../components/page';
import {
  cardClass,
  disabledClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { useStoredUser } from '../../../lib/auth-storage';
import { maskDestination } from '../../../lib/masking';
import { PasskeyCancelled, confirmWithPasskey, listPasskeys, passkeyKeys } from '../../../lib/passkeys';
import {
  canAttemptOtp,
  canSendOtp,
  clearOtpAttempts,
  isRejectedCode,
  recordFailedOtpAttempt,
  recordOtpSend,
} from '../../../lib/otp-throttle';
import { useCountdown } from '../../../lib/use-countdown';
import { chooseOtpChannel, postTransfer, sendTransferOtp, verifyTransferOtp } from '../api/wallet';
import type { OtpChannel, PendingTransfer } from '../api/wallet';
import { BackToDashboard } from '../components/back-to-dashboard';
import { QrPayScanner } from '../components/qr-pay-scanner';
import { formForPayee, readTransferPrefill } from '../transfer-prefill';
import type { QrPayee } from '../transfer-prefill';
import { validateTransfer } from '../transfer-validation';
import type { TransferFormValues } from '../transfer-validation';
import { formatMoney } from '../../../lib/i18n-format';
import { translateMessage } from '../../../lib/server-message';

type Mode = 'phone_email' | 'qr_scan';
const EMPTY_FORM: TransferFormValues = { receiverPhone: '', receiverEmail: '', amount: '' };
/** The one toast of this page: each new one replaces the last, and a step change clears it. */
const TRANSFER_TOAST_ID = 'transfer';

/** "₹1,250.50" from the amount as typed (already checked). */
function amountShown(amountText: string): string {
  const paise = parseRupees(amountText);
  return paise === null ? amountText : formatMoney(paiseToRupeesText(paise));
}

function identifierOf(channel: OtpChannel): string {
  return channel.kind === 'sms' ? channel.phone : channel.email;
}

/**
 * Send Money (spec §2.13, §4, §5.10, §5.11): form, then a one-time code to the sender, then the transfer. In QR
 * mode the camera reads a payment code first (or /qr-scan already did, in router state): the payee's address
 * and any fixed amount fill the form and stay fixed; the code step is the same.
 */
export function TransferRoute() {
  const { t } = useTranslation('wallet');
  const { t: commonText } = useTranslation();
  const user = useStoredUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const alertId = useId();
  const [qrPayee, setQrPayee] = useState<QrPayee | null>(() => readTransferPrefill(location.state));
  const [mode, setMode] = useState<Mode>(qrPayee === null ? 'phone_email' : 'qr_scan');
  const [form, setForm] = useState<TransferFormValues>(() =>
    qrPayee === null ? EMPTY_FORM : formForPayee(qrPayee),
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<{ transfer: PendingTransfer; channel: OtpChannel } | null>(null);
  /** Where the last code went: the address asked for, or the account's email once the SMS budget is spent. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [otp, setOtp] = useState('');
  const [done, setDone] = useState(false);
  const countdown = useCountdown();
  // A person with a passkey may approve the transfer with it instead of the code (issue 23).
  const passkeys = useQuery({ queryKey: passkeyKeys.list, queryFn: listPasskeys });
  const hasPasskey = (passkeys.data?.passkeys.length ?? 0) > 0;

  useEffect(() => {
    if (!done) return undefined;
    const timer = window.setTimeout(() => void navigate('/user-dashboard'), TRANSFER_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const sendCode = async (channel: OtpChannel, transfer: PendingTransfer): Promise<boolean> => {
    const identifier = identifierOf(channel);
    if (!canSendOtp(identifier)) {
      setError(messages.tooManyOtpRequests);
      return false;
    }
    try {
      const answer = await sendTransferOtp(channel, transfer);
      recordOtpSend(identifier);
      countdown.start(answer.resend_after_s > 0 ? answer.resend_after_s : OTP_RESEND_COOLDOWN_MS / 1_000);
      // A phone's code goes to the account's email once the SMS budget is spent: the answer says so.
      const byEmail = channel.kind === 'email' || answer.message === messages.otpSentEmail;
      toast.success(byEmail ? messages.otpSentEmail : messages.otpSentPhone, { id: TRANSFER_TOAST_ID });
      setSentTo(byEmail && channel.kind === 'sms' ? (user?.email ?? null) : identifier);
      return true;
    } catch (cause) {
      setError(errorMessage(cause, messages.failedToSendOtpRetry));
      return false;
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    const sender = { email: user?.email ?? null, phone: user?.phone ?? null };
    const problem = validateTransfer(form, sender);
    if (problem !== null) {
      setError(problem);
      return;
    }
    if (user === null) {
      setError(messages.userNotLoggedIn);
      return;
    }
    const channel = chooseOtpChannel(sender);
    if (channel === null) {
      setError(messages.noOtpContact);
      return;
    }
    const transfer: PendingTransfer = {
      receiverEmail: form.receiverEmail.trim(),
      receiverPhone: form.receiverPhone.trim(),
      amountText: form.amount.trim(),
      method: qrPayee === null ? 'phone_email' : 'qr_scan',
      idempotencyKey: crypto.randomUUID(),
    };
    setBusy(true);
    // The code is asked for this very transfer: it names it, and pays only it.
    const sent = await sendCode(channel, transfer);
    setBusy(false);
    if (!sent) return;
    setOtp('');
    setPending({ channel, transfer });
  };

  const verify = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy || pending === null || user === null) return;
    setError(null);
    if (!/^\d{6}$/.test(otp)) {
      setError(messages.invalidOtp);
      return;
    }
    const identifier = identifierOf(pending.channel);
    if (!canAttemptOtp(identifier)) {
      setError(messages.tooManyAttempts);
      return;
    }
    setBusy(true);
    try {
      await verifyTransferOtp(pending.channel, otp);
      clearOtpAttempts(identifier);
    } catch (cause) {
      if (isRejectedCode(cause)) recordFailedOtpAttempt(identifier);
      setError(errorMessage(cause, messages.otpVerificationFailedRetry));
      setBusy(false);
      return;
    }
    await pay(user.id, pending.transfer);
  };

  /** The transfer, once a code or a passkey approved it. */
  const pay = async (userId: string | number, transfer: PendingTransfer): Promise<void> => {
    try {
      await postTransfer(String(userId), transfer);
      // The server confirmed: one message for the outcome, on the page (no toast beside it, no busy button).
      toast.dismiss(TRANSFER_TOAST_ID);
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      setBusy(false);
      setDone(true);
    } catch (cause) {
      setError(errorMessage(cause, messages.transferProcessingFailed));
      setBusy(false);
    }
  };

  /** "Use a passkey instead" (issue 23): the passkey approves this amount to this receiver, as the code would. */
  const approveWithPasskey = async (): Promise<void> => {
    if (busy || pending === null || user === null) return;
    setError(null);
    setBusy(true);
    try {
      await confirmWithPasskey('transfer', {
        amount: Number(pending.transfer.amountText),
        receiverEmail: pending.transfer.receiverEmail,
        receiverPhone: pending.transfer.receiverPhone,
      });
    } catch (cause) {
      setError(
        cause instanceof PasskeyCancelled
          ? commonText('passkeys.cancelled')
          : errorMessage(cause, messages.passkeyNotVerified),
      );
      setBusy(false);
      return;
    }
    await pay(user.id, pending.transfer);
  };

  const resend = async (): Promise<void> => {
    if (pending === null || countdown.secondsLeft > 0 || busy) return;
    setError(null);
    setBusy(true);
    await sendCode(pending.channel, pending.transfer);
    setBusy(false);
  };

  const goBack = (): void => {
    toast.dismiss(TRANSFER_TOAST_ID);
    setPending(null);
    setOtp('');
    setError(null);
    countdown.stop();
  };

  if (pending !== null && done) {
    const receiver = pending.transfer.receiverEmail || pending.transfer.receiverPhone;
    const sent = translateMessage(messages.moneySent);
    return (
      <Page title={t('transfer.title')} lead={sent}>
        <section role="status" aria-label={sent} className={`${cardClass} max-w-lg space-y-3`}>
          <p className="text-xl font-bold text-emerald-800">{sent}</p>
          <p className="text-slate-800" data-testid="transfer-done">
            {commonText('flow.moneySentDetail', {
              amount: amountShown(pending.transfer.amountText),
              receiver,
            })}
          </p>
          <p className="text-sm text-slate-600">{commonText('flow.redirecting')}</p>
          <Link to="/user-dashboard" className={primaryButtonClass}>
            {commonText('flow.toDashboard')}
          </Link>
        </section>
      </Page>
    );
  }

  if (pending !== null) {
    const sms = pending.channel.kind === 'sms';
    return (
      <Page title={t('transfer.verifyTitle')} lead={t('transfer.verifyLead')}>
        <div className={`${cardClass} max-w-lg`}>
          <p>
            <CodeChannelBadge channel={pending.channel.kind} />
          </p>
          <p className="mt-2 text-sm" data-testid="code-sent-to">
            {sentTo === null
              ? commonText('flow.codeSent', {
                  amount: amountShown(pending.transfer.amountText),
                  receiver: pending.transfer.receiverEmail || pending.transfer.receiverPhone,
                })
              : commonText('flow.codeSentTo', {
                  destination: maskDestination(sentTo),
                  amount: amountShown(pending.transfer.amountText),
                  receiver: pending.transfer.receiverEmail || pending.transfer.receiverPhone,
                })}
          </p>
          <form noValidate className="mt-4 space-y-4" onSubmit={(event) => void verify(event)}>
            <OtpField
              label={t('transfer.oneTimeCode')}
              autoComplete="one-time-code"
              value={otp}
              invalid={error === messages.invalidOtp}
              errorId={alertId}
              onCode={setOtp}
            />
            <FormAlert id={alertId} message={error} />
            <button type="submit" className={`${primaryButtonClass} ${disabledClass} w-full`} disabled={busy}>
              {busy ? t('transfer.verifying') : t('transfer.verifySend')}
            </button>
          </form>
          {hasPasskey ? (
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass} mt-3 w-full`}
              disabled={busy || done}
              onClick={() => void approveWithPasskey()}
            >
              {commonText('passkeys.useInstead')}
            </button>
          ) : null}
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
            <button
              type="button"
              className={linkButtonClass}
              disabled={countdown.secondsLeft > 0 || busy || done}
              onClick={() => void resend()}
            >
              {countdown.secondsLeft > 0
                ? t('transfer.resendIn', { seconds: countdown.secondsLeft })
                : sms
                  ? t('transfer.resendSms')
                  : t('transfer.resendEmail')}
            </button>
            <button type="button" className={secondaryButtonClass} disabled={done} onClick={goBack}>
              {t('transfer.goBack')}
            </button>
          </div>
        </div>
      </Page>
    );
  }

  return (
    <Page title={t('transfer.title')} lead={t('transfer.lead')}>
      <div className="max-w-lg">
        <div role="group" aria-label={t('transfer.method')} className="mb-6 flex gap-2">
          <button
            type="button"
            aria-pressed={mode === 'phone_email'}
            className={mode === 'phone_email' ? primaryButtonClass : secondaryButtonClass}
            onClick={() => {
              if (mode === 'phone_email') return;
              setMode('phone_email');
              setQrPayee(null);
              setForm(EMPTY_FORM);
              setError(null);
            }}
          >
            {t('transfer.phoneEmail')}
          </button>
          <button
            type="button"
            aria-pressed={mode === 'qr_scan'}
            className={mode === 'qr_scan' ? primaryButtonClass : secondaryButtonClass}
            onClick={() => {
              if (mode === 'qr_scan') return;
              setMode('qr_scan');
              setError(null);
            }}
          >
            {t('transfer.qrScan')}
          </button>
        </div>
        {mode === 'qr_scan' && qrPayee === null ? (
          <div className={cardClass}>
            <QrPayScanner
              onResolved={(payee) => {
                setQrPayee(payee);
                setForm(formForPayee(payee, form.amount));
                setError(null);
              }}
            />
          </div>
        ) : (
          <form noValidate className={`${cardClass} space-y-4`} onSubmit={(event) => void submit(event)}>
            {qrPayee === null ? null : (
              <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-emerald-50 px-3 py-2">
                <p className="text-sm text-emerald-900">
                  <Trans
                    t={t}
                    i18nKey={
                      qrPayee.payee_kind === 'store'
                        ? qrPayee.amount === null
                          ? 'transfer.payingStore'
                          : 'transfer.payingStoreFixed'
                        : qrPayee.amount === null
                          ? 'transfer.paying'
                          : 'transfer.payingFixed'
                    }
                    values={{ payee: qrPayee.payee_name }}
                    components={{ strong: <strong /> }}
                  />
                </p>
                <button
                  type="button"
                  className={linkButtonClass}
                  onClick={() => {
                    setQrPayee(null);
                    setForm(EMPTY_FORM);
                    setError(null);
                  }}
                >
                  {t('transfer.scanAnother')}
                </button>
              </div>
            )}
            <TextField
              label={t('transfer.receiverPhone')}
              type="tel"
              autoComplete="off"
              readOnly={qrPayee !== null}
              value={form.receiverPhone}
              onChange={(event) => setForm({ ...form, receiverPhone: event.target.value })}
            />
            <TextField
              label={t('transfer.receiverEmail')}
              type="email"
              autoComplete="off"
              readOnly={qrPayee !== null}
              value={form.receiverEmail}
              onChange={(event) => setForm({ ...form, receiverEmail: event.target.value })}
            />
            <AmountField
              label={t('transfer.amount')}
              required
              readOnly={qrPayee !== null && qrPayee.amount !== null}
              value={form.amount}
              onChange={(event) => setForm({ ...form, amount: event.target.value })}
            />
            <FormAlert id={alertId} message={error} />
            <button type="submit" className={`${primaryButtonClass} ${disabledClass} w-full`} disabled={busy}>
              {busy ? t('transfer.processing') : t('transfer.submit')}
            </button>
          </form>
        )}
        <BackToDashboard />
      </div>
    </Page>
  );
}
