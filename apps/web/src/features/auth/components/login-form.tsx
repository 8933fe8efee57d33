import { Trans, useTranslation } from 'react-i18next';
import type { OtpPurpose, PublicUser, SessionAnswer } from '@hasta/contracts/auth';
import { PHONE_DEFAULT_PREFIX } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';

import { FormAlert, FormStatus, TextField } from '../../../components/form-field';
import {
  disabledClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { apiRequest, errorMessage } from '../../../lib/api-client';
import { storeLogin } from '../../../lib/auth-storage';
import { useCountdown } from '../../../lib/use-countdown';
import { loginWithOtp, loginWithPassword, sendOtp } from '../api/auth-api';
import type { Channel, Contact } from '../utils/contact';
import { parseEmail, parsePhone } from '../utils/contact';
import { isCompleteCode } from '../utils/form-schemas';
import { EMPTY_CODE, codeOf } from '../utils/otp-digits';
import { getPostLoginPath } from '../utils/post-login-path';
import { ChannelToggle, ContactField } from './contact-field';
import { ForcedPasswordChange } from './forced-password-change';
import { PasskeySignInStep } from './passkey-sign-in-step';
import { OtpInput } from './otp-input';
import { PasswordResetForm } from './password-reset-form';
import { ResendButton } from './resend-button';

/**
 * The login modes of spec §2.8 and §4: choose, then otp (after a code is sent) or password; from password,
 * forgot (ask for the phone) then reset (code + new password); after an admin reset, change.
 */
type Mode = 'choose' | 'otp' | 'password' | 'forgot' | 'reset' | 'change' | 'passkey';
type Field = 'contact' | 'code' | 'password';

interface Problem {
  field: Field | null;
  message: string;
}

const FORGOT_PROMPT = {
  phone: 'loginForm.forgotPhone',
  email: 'loginForm.forgotEmail',
} as const satisfies Record<Channel, string>;

const otpSentText = (channel: Channel): string =>
  channel === 'email' ? messages.otpSentEmail : messages.otpSentPhone;

const modeHeading = {
  choose: 'loginForm.choose',
  otp: 'loginForm.otp',
  password: 'loginForm.password',
  forgot: 'loginForm.forgot',
} as const satisfies Record<Exclude<Mode, 'change' | 'reset' | 'passkey'>, string>;

export function LoginForm() {
  const location = useLocation();
  const navigate = useNavigate();
  const errorId = useId();
  const { t } = useTranslation('auth');

  const [channel, setChannel] = useState<Channel>('phone');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState(PHONE_DEFAULT_PREFIX);
  const [prefixLocked, setPrefixLocked] = useState(true);
  const [mode, setMode] = useState<Mode>('choose');
  const [sentTo, setSentTo] = useState<Contact | null>(null);
  const [sentFor, setSentFor] = useState<OtpPurpose | null>(null);
  const [digits, setDigits] = useState<string[]>([...EMPTY_CODE]);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [mustChange, setMustChange] = useState<{ user: PublicUser; password: string | null } | null>(null);
  /** An admin's or store owner's sign-in waiting for its passkey step (issue 23). */
  const [pendingPasskey, setPendingPasskey] = useState<{
    answer: SessionAnswer;
    password: string | null;
  } | null>(null);
  const countdown = useCountdown();

  const fail = (field: Field | null, message: string): void => setProblem({ field, message });

  /** The typed email or phone, normalized; null (with the spec's message shown) when it is not valid. */
  const readContact = (): Contact | null => {
    if (channel === 'email') {
      const value = parseEmail(email);
      if (value === null) fail('contact', messages.invalidEmail);
      return value === null ? null : { channel, value };
    }
    const value = parsePhone(phone);
    if (value === null) fail('contact', messages.invalidPhone);
    return value === null ? null : { channel, value };
  };

  // One message per outcome: a step's toast (the code was sent) does not follow the person into the next.
  const goTo = (next: Mode): void => {
    toast.dismiss();
    setProblem(null);
    setMode(next);
  };

  /** The password or code was right: an admin or store owner then takes the passkey step. */
  const signedIn = (answer: SessionAnswer, knownPassword: string | null): void => {
    if (answer.second_factor) {
      setProblem(null);
      setPendingPasskey({ answer, password: knownPassword });
      setMode('passkey');
      return;
    }
    complete(answer.user, knownPassword);
  };

  const complete = (user: PublicUser, knownPassword: string | null): void => {
    toast.dismiss();
    setProblem(null);
    if (user.must_change_password) {
      setMustChange({ user, password: knownPassword });
      setMode('change');
      return;
    }
    storeLogin(user);
    void navigate(getPostLoginPath(location, user), { replace: true });
  };

  const send = useMutation({
    mutationFn: ({ contact, purpose }: { contact: Contact; purpose: OtpPurpose }) =>
      sendOtp(contact, purpose),
    onSuccess: (answer, { contact, purpose }) => {
      setSentTo(contact);
      setSentFor(purpose);
      setDigits([...EMPTY_CODE]);
      goTo(purpose === 'password_reset' ? 'reset' : 'otp');
      countdown.start(answer.resend_after_s);
      // A phone's code goes to the account's email once the SMS budget is spent: the answer says so.
      toast(answer.message === messages.otpSentEmail ? messages.otpSentEmail : otpSentText(contact.channel));
    },
    onError: (error) => {
      const onCodeStep = mode === 'otp' || mode === 'reset';
      fail(onCodeStep ? null : 'contact', errorMessage(error, messages.loginRequestFailed));
    },
  });

  const verify = useMutation({
    mutationFn: ({ contact, code }: { contact: Contact; code: string }) => loginWithOtp(contact, code),
    onSuccess: (answer) => signedIn(answer, null),
    onError: (error) => fail('code', errorMessage(error, messages.loginRequestFailed)),
  });

  const passwordLogin = useMutation({
    mutationFn: ({ contact, secret }: { contact: Contact; secret: string }) =>
      loginWithPassword(contact, secret),
    onSuccess: (answer, { secret }) => signedIn(answer, secret),
    onError: (error) => fail(null, errorMessage(error, messages.loginRequestFailed)),
  });

  const busy = send.isPending || verify.isPending || passwordLogin.isPending;

  const requestCode = (purpose: OtpPurpose): void => {
    const contact = readContact();
    if (contact === null) return;
    // The same address and purpose again while the last code is fresh: back to it, no second send.
    if (contact.value === sentTo?.value && purpose === sentFor && countdown.secondsLeft > 0) {
      setDigits([...EMPTY_CODE]);
      goTo(purpose === 'password_reset' ? 'reset' : 'otp');
      return;
    }
    send.mutate({ contact, purpose });
  };

  const switchChannel = (next: Channel): void => {
    setChannel(next);
    setProblem(null);
  };

  const backToChoose = (): void => {
    setDigits([...EMPTY_CODE]);
    goTo('choose');
  };

  const contactField = (
    <ContactField
      channel={channel}
      email={email}
      phone={phone}
      onEmailChange={setEmail}
      onPhoneChange={setPhone}
      prefixLocked={prefixLocked}
      onUnlockPrefix={() => setPrefixLocked(false)}
      invalid={problem?.field === 'contact'}
      errorId={errorId}
      disabled={busy}
    />
  );

  if (mode === 'passkey' && pendingPasskey !== null && pendingPasskey.answer.second_factor) {
    return (
      <PasskeySignInStep
        step={pendingPasskey.answer.second_factor}
        onDone={() => {
          setPendingPasskey(null);
          complete(pendingPasskey.answer.user, pendingPasskey.password);
        }}
        onCancel={() => {
          // End the half-open session (it can do nothing but the passkey step anyway).
          apiRequest('/api/auth/logout', { method: 'POST', schema: z.unknown() }).catch(() => undefined);
          setPendingPasskey(null);
          setPassword('');
          backToChoose();
        }}
      />
    );
  }

  if (mode === 'change' && mustChange !== null) {
    return (
      <ForcedPasswordChange
        user={mustChange.user}
        knownPassword={mustChange.password}
        onDone={(user) => complete(user, null)}
        onCancel={() => {
          // End the half-open session (it can do nothing but change the password anyway).
          apiRequest('/api/auth/logout', { method: 'POST', schema: z.unknown() }).catch(() => undefined);
          setMustChange(null);
          setPassword('');
          backToChoose();
        }}
      />
    );
  }

  if (mode === 'reset' && sentTo !== null) {
    return (
      <section aria-labelledby={`${errorId}-heading`} className="space-y-5">
        <h2 id={`${errorId}-heading`} className="text-xl font-semibold text-slate-900">
          {t('loginForm.forgot')}
        </h2>
        <PasswordResetForm
          contact={sentTo}
          secondsLeft={countdown.secondsLeft}
          resendPending={send.isPending}
          resendError={problem?.message ?? null}
          onResend={() => {
            setProblem(null);
            send.mutate({ contact: sentTo, purpose: 'password_reset' });
          }}
          onDone={(answer) => signedIn(answer, null)}
          onBack={backToChoose}
        />
      </section>
    );
  }

  const showToggle = mode === 'choose' || mode === 'password' || mode === 'forgot';
  const heading =
    mode === 'change' || mode === 'reset' || mode === 'passkey' ? modeHeading.choose : modeHeading[mode];

  return (
    <section aria-labelledby={`${errorId}-heading`} className="space-y-6">
      <h2 id={`${errorId}-heading`} className="text-xl font-semibold text-slate-900">
        {t(heading)}
      </h2>
      {showToggle ? <ChannelToggle channel={channel} onChange={switchChannel} disabled={busy} /> : null}

      {mode === 'choose' ? (
        <form
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            requestCode('login');
          }}
        >
          {contactField}
          <FormAlert id={errorId} message={problem?.message ?? null} />
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy}>
              {send.isPending ? t('loginForm.sending') : t('loginForm.loginWithOtp')}
            </button>
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass}`}
              disabled={busy}
              onClick={() => goTo('password')}
            >
              {t('loginForm.loginWithPassword')}
            </button>
          </div>
        </form>
      ) : null}

      {mode === 'password' ? (
        <form
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            const contact = readContact();
            if (contact === null) return;
            if (password === '') {
              fail('password', messages.allFieldsRequired);
              return;
            }
            passwordLogin.mutate({ contact, secret: password });
          }}
        >
          {contactField}
          <TextField
            label={t('loginForm.passwordLabel')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            invalid={problem?.field === 'password'}
            errorId={errorId}
            disabled={busy}
          />
          <FormAlert id={errorId} message={problem?.message ?? null} />
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy}>
              {passwordLogin.isPending ? t('loginForm.loggingIn') : t('loginForm.login')}
            </button>
            <button
              type="button"
              className={linkButtonClass}
              disabled={busy}
              onClick={() => {
                setChannel('phone');
                goTo('forgot');
              }}
            >
              {t('loginForm.forgotPassword')}
            </button>
            <button
              type="button"
              className={linkButtonClass}
              disabled={busy}
              onClick={() => requestCode('login')}
            >
              {t('loginForm.useOtp')}
            </button>
          </div>
        </form>
      ) : null}

      {mode === 'forgot' ? (
        <form
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            requestCode('password_reset');
          }}
        >
          <FormStatus message={t(FORGOT_PROMPT[channel])} />
          {contactField}
          <FormAlert id={errorId} message={problem?.message ?? null} />
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy}>
              {send.isPending ? t('loginForm.sending') : t('loginForm.sendReset')}
            </button>
            <button
              type="button"
              className={linkButtonClass}
              disabled={busy}
              onClick={() => goTo('password')}
            >
              {t('loginForm.backToLogin')}
            </button>
          </div>
        </form>
      ) : null}

      {mode === 'otp' && sentTo !== null ? (
        <form
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            const code = codeOf(digits);
            if (!isCompleteCode(code)) {
              fail('code', messages.enterSixDigitCode);
              return;
            }
            verify.mutate({ contact: sentTo, code });
          }}
        >
          <p className="text-slate-700">
            <Trans
              t={t}
              i18nKey="loginForm.codeSentTo"
              values={{ contact: sentTo.value }}
              components={{ strong: <strong className="text-slate-900" /> }}
            />
          </p>
          <OtpInput
            legend={t('loginForm.oneTimeCode')}
            digits={digits}
            onChange={setDigits}
            invalid={problem?.field === 'code'}
            errorId={errorId}
            disabled={verify.isPending}
            autoFocus
          />
          <FormAlert id={errorId} message={problem?.message ?? null} />
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy}>
              {verify.isPending ? t('loginForm.verifying') : t('loginForm.verifyLogin')}
            </button>
            <ResendButton
              secondsLeft={countdown.secondsLeft}
              pending={send.isPending}
              onResend={() => send.mutate({ contact: sentTo, purpose: 'login' })}
            />
            <button type="button" className={linkButtonClass} disabled={busy} onClick={backToChoose}>
              {t('loginForm.changeContact')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
