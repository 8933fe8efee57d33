import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';
import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { FormAlert, OtpField, TextField } from '../../../components/form-field';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { PasskeysList } from '../../../components/passkeys-list';
import { SessionsList } from '../../../components/sessions-list';
import { fetchSettings, merchantKeys, resendContactCode, saveSettings, verifyContact } from '../api/merchant';
import type { ContactChannel, MerchantSettings } from '../api/merchant';

/** Settings tab (spec §2.16): store name, contact email and phone, notification choices; saved on the server. */
export function SettingsTab() {
  const { t } = useTranslation(['merchant', 'app']);
  const settings = useQuery({
    queryKey: merchantKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    refetchOnMount: 'always',
  });
  if (settings.isPending) {
    return (
      <p role="status" className="text-slate-600">
        {t('settings.loading')}
      </p>
    );
  }
  if (settings.isError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
        <p className="font-medium text-red-800">{errorMessage(settings.error, messages.requestFailed)}</p>
        <button type="button" className={secondaryButtonClass} onClick={() => void settings.refetch()}>
          {t('app:actions.retry')}
        </button>
      </div>
    );
  }
  // Keyed by what was loaded: a reload after saving starts the form from the saved values.
  const data = settings.data;
  return (
    <div className="space-y-6">
      <SettingsForm key={JSON.stringify(data)} saved={data} />
      {data.contact_email !== null && !data.contact_email_verified ? (
        <VerifyContact channel="email" address={data.contact_email} />
      ) : null}
      {data.contact_phone !== null && !data.contact_phone_verified ? (
        <VerifyContact channel="phone" address={data.contact_phone} />
      ) : null}
      <PasskeysList />
      <SessionsList />
    </div>
  );
}

/**
 * A new contact email or phone waits for the code sent to it (issue 23): payers see the last verified contact
 * (or none) until the code comes back.
 */
function VerifyContact({ channel, address }: { channel: ContactChannel; address: string }) {
  const { t } = useTranslation('merchant');
  const alertId = useId();
  const titleId = useId();
  const queryClient = useQueryClient();
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useMutation({
    mutationFn: verifyContact,
    onSuccess: (answer) => {
      toast.success(messages.storeContactVerified);
      queryClient.setQueryData(merchantKeys.settings, answer);
    },
    onError: (cause) => setError(errorMessage(cause, messages.failedToVerifyOtp)),
  });
  const resend = useMutation({
    mutationFn: resendContactCode,
    onSuccess: (answer) => {
      setError(null);
      toast.success(answer.message);
    },
    onError: (cause) => setError(errorMessage(cause, messages.failedToSendVerificationCode)),
  });
  const what = channel === 'email' ? t('settings.contactEmail') : t('settings.contactPhone');

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (verify.isPending) return;
    if (!/^\d{6}$/.test(otp)) {
      setError(messages.invalidOtp);
      return;
    }
    setError(null);
    verify.mutate({ channel, otp });
  };

  return (
    <form
      noValidate
      aria-labelledby={titleId}
      className={`${cardClass} max-w-xl space-y-4`}
      onSubmit={submit}
    >
      <h3 id={titleId} className="text-lg font-semibold text-slate-900">
        {t('settings.verifyTitle', { what })}
      </h3>
      <p className="text-slate-700">
        <Trans
          t={t}
          i18nKey="settings.verifyBody"
          values={{ address, what }}
          components={{ strong: <strong /> }}
        />
      </p>
      <OtpField
        label={t('settings.codeLabel', { what })}
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
          disabled={verify.isPending}
        >
          {verify.isPending ? t('settings.verifying') : t('settings.verify')}
        </button>
        <button
          type="button"
          className={`${secondaryButtonClass} ${disabledClass}`}
          disabled={resend.isPending}
          onClick={() => resend.mutate(channel)}
        >
          {resend.isPending ? t('settings.sending') : t('settings.resend')}
        </button>
      </div>
    </form>
  );
}

function SettingsForm({ saved }: { saved: MerchantSettings }) {
  const { t } = useTranslation('merchant');
  const alertId = useId();
  const queryClient = useQueryClient();
  const [storeName, setStoreName] = useState(saved.store_name);
  const [email, setEmail] = useState(saved.contact_email ?? '');
  const [phone, setPhone] = useState(saved.contact_phone ?? '');
  const [notifyEmail, setNotifyEmail] = useState(saved.notify_email);
  const [notifySms, setNotifySms] = useState(saved.notify_sms);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveSettings,
    onSuccess: (answer) => {
      toast.success(messages.settingsSaved);
      queryClient.setQueryData(merchantKeys.settings, answer);
      void queryClient.invalidateQueries({ queryKey: merchantKeys.summary });
    },
    onError: (cause) => setError(errorMessage(cause, messages.requestFailed)),
  });

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (save.isPending) return;
    if (storeName.trim() === '') {
      setError(messages.fillAllRequired);
      return;
    }
    const contactEmail = email.trim() === '' ? null : normalizeEmail(email);
    if (email.trim() !== '' && contactEmail === null) {
      setError(messages.invalidEmail);
      return;
    }
    const contactPhone = phone.trim() === '' ? null : normalizePhone(phone);
    if (phone.trim() !== '' && contactPhone === null) {
      setError(messages.invalidPhone);
      return;
    }
    setError(null);
    save.mutate({
      store_name: storeName.trim(),
      contact_email: contactEmail,
      contact_phone: contactPhone,
      notify_email: notifyEmail,
      notify_sms: notifySms,
    });
  };

  return (
    <form
      noValidate
      aria-label={t('settings.formLabel')}
      className={`${cardClass} max-w-xl space-y-4`}
      onSubmit={submit}
    >
      <TextField
        label={t('settings.storeName')}
        required
        maxLength={200}
        value={storeName}
        onChange={(event) => setStoreName(event.target.value)}
      />
      <TextField
        label={t('settings.email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <TextField
        label={t('settings.phone')}
        type="tel"
        autoComplete="tel"
        value={phone}
        onChange={(event) => setPhone(event.target.value)}
      />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">{t('settings.notifications')}</legend>
        <label className="flex items-center gap-2 text-slate-800">
          <input
            type="checkbox"
            checked={notifyEmail}
            onChange={(event) => setNotifyEmail(event.target.checked)}
          />
          {t('settings.notifyEmail')}
        </label>
        <label className="flex items-center gap-2 text-slate-800">
          <input
            type="checkbox"
            checked={notifySms}
            onChange={(event) => setNotifySms(event.target.checked)}
          />
          {t('settings.notifySms')}
        </label>
      </fieldset>
      <FormAlert id={alertId} message={error} />
      <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={save.isPending}>
        {save.isPending ? t('settings.saving') : t('settings.save')}
      </button>
    </form>
  );
}
