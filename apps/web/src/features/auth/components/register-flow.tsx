import { SIGNUP_REDIRECT_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

import { FormAlert, FormStatus, TextField } from '../../../components/form-field';
import { disabledClass, linkButtonClass, primaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { storeLogin } from '../../../lib/auth-storage';
import { formErrorMessage } from '../../../lib/form-errors';
import { claimRememberedReferral } from '../../../lib/referral';
import { useCountdown } from '../../../lib/use-countdown';
import { sendOtp, signup, verifyRegistration } from '../api/auth-api';
import type { Contact } from '../utils/contact';
import { parseEmail, parseRegisterContact } from '../utils/contact';
import { isCompleteCode, registerFormSchema, registerPasswordSchema } from '../utils/form-schemas';
import type { RegisterFormValues, RegisterPasswordValues } from '../utils/form-schemas';
import { EMPTY_CODE, codeOf } from '../utils/otp-digits';
import { OtpInput } from './otp-input';
import { ResendButton } from './resend-button';

/** Registration steps (spec §2.9, §4); 'done' shows the success message until the redirect. */
type Step = 'form' | 'check-email' | 'otp' | 'password' | 'done';

/** What a registration email link carries: `/register?token=…&email=…&type=registration`. */
interface RegistrationLink {
  token: string;
  contact: Contact;
}

function readRegistrationLink(params: URLSearchParams): RegistrationLink | null {
  const token = params.get('token');
  const email = parseEmail(params.get('email') ?? '');
  // The type must be exactly 'registration' (spec §2.9).
  if (params.get('type') !== 'registration' || token === null || token === '' || email === null) return null;
  return { token, contact: { channel: 'email', value: email } };
}

const sentText = (contact: Contact): string =>
  contact.channel === 'email' ? messages.otpSentEmail : messages.otpSentPhone;

export function RegisterFlow() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const errorId = useId();
  const headingId = useId();
  const countdown = useCountdown();

  // Read once: the link's token is dropped from the address bar below.
  const [link] = useState(() => readRegistrationLink(searchParams));
  const [step, setStep] = useState<Step>(link === null ? 'form' : 'otp');
  const [contact, setContact] = useState<Contact | null>(link?.contact ?? null);
  const [digits, setDigits] = useState<string[]>([...EMPTY_CODE]);
  const [verificationToken, setVerificationToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);
  const [passwordValues, setPasswordValues] = useState<RegisterPasswordValues>({
    username: '',
    password: '',
    confirmPassword: '',
  });
  const [doneMessage, setDoneMessage] = useState<string | null>(null);

  const form = useForm<RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { username: '', contact: link?.contact.value ?? '' },
  });

  // One message per outcome: a step's toast (the code was sent) does not follow the person into the next.
  const goTo = (next: Step): void => {
    toast.dismiss();
    setProblem(null);
    setStep(next);
  };

  const send = useMutation({
    mutationFn: (target: Contact) => sendOtp(target, 'registration'),
    onSuccess: (answer, target) => {
      setContact(target);
      countdown.start(answer.resend_after_s);
      if (step === 'form') goTo('check-email');
      toast(sentText(target));
    },
    onError: (error) => {
      const message = errorMessage(error, messages.failedToSendVerificationCode);
      if (step === 'form') form.setError('root.server', { message });
      else setProblem({ field: null, message });
    },
  });

  const verify = useMutation({
    mutationFn: ({ target, secret }: { target: Contact; secret: { otp: string } | { token: string } }) =>
      verifyRegistration(target, secret),
    onSuccess: (answer) => {
      setVerificationToken(answer.verification_token ?? null);
      setPasswordValues((values) => ({ ...values, username: form.getValues('username').trim() }));
      goTo('password');
    },
    onError: (error) =>
      setProblem({ field: 'code', message: errorMessage(error, messages.invalidVerificationCode) }),
  });

  const create = useMutation({
    mutationFn: (values: RegisterPasswordValues & { target: Contact }) =>
      signup({
        username: values.username,
        password: values.password,
        contact: values.target,
        verificationToken,
      }),
    onSuccess: (answer) => {
      storeLogin(answer.user);
      // Registered through a friend's share link: the referral counts now (issue 24).
      void claimRememberedReferral();
      setDoneMessage(answer.message);
      goTo('done');
    },
    onError: (error) =>
      setProblem({ field: null, message: errorMessage(error, messages.registrationFailed) }),
  });

  // A registration link verifies itself once, then leaves the address bar (the token is a secret).
  const linkHandled = useRef(false);
  const { mutate: verifyMutate } = verify;
  useEffect(() => {
    if (link === null || linkHandled.current) return;
    linkHandled.current = true;
    verifyMutate({ target: link.contact, secret: { token: link.token } });
    void navigate('/register', { replace: true });
  }, [link, navigate, verifyMutate]);

  useEffect(() => {
    if (step !== 'done') return undefined;
    const timer = window.setTimeout(() => void navigate('/user-dashboard'), SIGNUP_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [step, navigate]);

  /**
   * The code's form: on the otp step, and already on check-email (issue 27), where the code can be typed at
   * once without pressing Enter Code Manually first.
   */
  const codeForm = (target: Contact, onOtpStep: boolean) => (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        const code = codeOf(digits);
        if (!isCompleteCode(code)) {
          setProblem({ field: 'code', message: messages.enterSixDigitVerificationCode });
          return;
        }
        setProblem(null);
        verify.mutate({ target, secret: { otp: code } });
      }}
    >
      {onOtpStep ? (
        <p className="text-slate-700">
          <Trans
            t={t}
            i18nKey="loginForm.codeSentTo"
            values={{ contact: target.value }}
            components={{ strong: <strong className="text-slate-900" /> }}
          />
        </p>
      ) : null}
      {verify.isPending && link !== null && codeOf(digits) === '' ? (
        <FormStatus message={t('flow.verifyingLink')} />
      ) : null}
      <OtpInput
        legend={t('flow.code')}
        digits={digits}
        onChange={setDigits}
        invalid={problem?.field === 'code'}
        errorId={errorId}
        disabled={verify.isPending}
        autoFocus
      />
      <FormAlert id={errorId} message={problem?.message ?? null} />
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          className={`${primaryButtonClass} ${disabledClass}`}
          disabled={verify.isPending}
        >
          {verify.isPending ? t('loginForm.verifying') : t('flow.verify')}
        </button>
        <ResendButton
          secondsLeft={countdown.secondsLeft}
          pending={send.isPending}
          onResend={() => send.mutate(target)}
        />
        {onOtpStep ? (
          <button type="button" className={linkButtonClass} onClick={() => goTo('check-email')}>
            {t('flow.backToEmail')}
          </button>
        ) : null}
      </div>
    </form>
  );

  const title: Record<Step, string> = {
    form: t('flow.details'),
    'check-email': contact?.channel === 'phone' ? t('flow.checkPhone') : t('flow.checkEmail'),
    otp: t('flow.enterCode'),
    password: t('flow.createPassword'),
    done: t('flow.created'),
  };

  return (
    <section aria-labelledby={headingId} className="space-y-5">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {title[step]}
      </h2>

      {step === 'form' ? (
        <form
          noValidate
          className="space-y-5"
          onSubmit={form.handleSubmit((values) => {
            const target = parseRegisterContact(values.contact);
            if (target === null) return;
            // Back from check-email with the same address while its code is fresh: no second send.
            if (target.value === contact?.value && countdown.secondsLeft > 0) goTo('check-email');
            else send.mutate(target);
          })}
        >
          <TextField
            label={t('register.username')}
            autoComplete="username"
            invalid={form.formState.errors.username !== undefined}
            errorId={errorId}
            readOnly={send.isPending}
            {...form.register('username')}
          />
          <TextField
            label={t('register.contact')}
            autoComplete="email"
            hint={t('register.contactHint')}
            invalid={form.formState.errors.contact !== undefined}
            errorId={errorId}
            readOnly={send.isPending}
            {...form.register('contact')}
          />
          <FormAlert id={errorId} message={formErrorMessage(form.formState.errors)} />
          <button
            type="submit"
            className={`${primaryButtonClass} ${disabledClass}`}
            disabled={send.isPending}
          >
            {send.isPending ? t('register.sending') : t('register.send')}
          </button>
        </form>
      ) : null}

      {step === 'check-email' && contact !== null ? (
        <div className="space-y-5">
          <p className="text-slate-700">
            <Trans
              t={t}
              i18nKey={contact.channel === 'email' ? 'flow.sentEmail' : 'flow.sentPhone'}
              values={{ contact: contact.value }}
              components={{ strong: <strong className="text-slate-900" /> }}
            />
          </p>
          {codeForm(contact, false)}
          <div className="flex flex-wrap items-center gap-4">
            <button type="button" className={primaryButtonClass} onClick={() => goTo('otp')}>
              {t('flow.manual')}
            </button>
            <button
              type="button"
              className={linkButtonClass}
              onClick={() => {
                setDigits([...EMPTY_CODE]);
                setVerificationToken(null);
                goTo('form');
              }}
            >
              {t('flow.backToRegistration')}
            </button>
          </div>
        </div>
      ) : null}

      {step === 'otp' && contact !== null ? codeForm(contact, true) : null}

      {step === 'password' && contact !== null ? (
        <RegisterPasswordStep
          values={passwordValues}
          onChange={setPasswordValues}
          askUsername={form.getValues('username').trim() === ''}
          problem={problem}
          errorId={errorId}
          pending={create.isPending}
          onSubmit={() => {
            const result = registerPasswordSchema.safeParse(passwordValues);
            if (!result.success) {
              const issue = result.error.issues[0];
              setProblem({ field: String(issue?.path[0] ?? ''), message: issue?.message ?? '' });
              return;
            }
            setProblem(null);
            create.mutate({ ...passwordValues, target: contact });
          }}
        />
      ) : null}

      {step === 'done' ? <FormStatus message={`${doneMessage ?? ''} ${t('flow.redirecting')}`} /> : null}
    </section>
  );
}

interface RegisterPasswordStepProps {
  values: RegisterPasswordValues;
  onChange: (values: RegisterPasswordValues) => void;
  /** When the step was reached from an email link, the username was never typed here. */
  askUsername: boolean;
  problem: { field: string | null; message: string } | null;
  errorId: string;
  pending: boolean;
  onSubmit: () => void;
}

function RegisterPasswordStep({
  values,
  onChange,
  askUsername,
  problem,
  errorId,
  pending,
  onSubmit,
}: RegisterPasswordStepProps) {
  const { t } = useTranslation('auth');
  const field = (name: keyof RegisterPasswordValues) => ({
    value: values[name],
    onChange: (event: { currentTarget: HTMLInputElement }) =>
      onChange({ ...values, [name]: event.currentTarget.value }),
    invalid: problem?.field === name,
    errorId,
    disabled: pending,
  });
  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {askUsername ? (
        <TextField label={t('register.username')} autoComplete="username" {...field('username')} />
      ) : null}
      <TextField
        label={t('loginForm.passwordLabel')}
        type="password"
        autoComplete="new-password"
        autoFocus
        {...field('password')}
      />
      <TextField
        label={t('flow.confirmPassword')}
        type="password"
        autoComplete="new-password"
        {...field('confirmPassword')}
      />
      <FormAlert id={errorId} message={problem?.message ?? null} />
      <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={pending}>
        {pending ? t('flow.creating') : t('flow.create')}
      </button>
    </form>
  );
}
