import { WAITLIST_REDIRECT_MS } from '@hasta/contracts/constants';
import { applicantRequestSchema } from '@hasta/contracts/forms';
import { messages } from '@hasta/contracts/messages';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { primaryButtonClass } from '../../../components/ui-classes';
import { failureMessage, useJoinWaitlist } from '../api/public-forms';
import type { ApplicantRequest } from '../api/public-forms';
import { issueResolver, shownFormError } from '../utils/form-issue';
import { FormAlert, FormStatus } from '../../../components/form-field';
import { HoneypotField, TextArea, TextInput, submitButtonClassExtra } from './form-controls';

type WaitlistValues = Required<ApplicantRequest>;

const EMPTY: WaitlistValues = { username: '', email: '', phonenumber: '', description: '', website: '' };

const resolver = issueResolver<WaitlistValues>({
  required: ['username', 'email', 'phonenumber', 'description'],
  requiredMessage: messages.allFieldsRequired,
  schema: applicantRequestSchema,
});

/**
 * The waitlist sign-up (spec §2.10, §5.8): the spec's validation texts, then 'Successfully joined the
 * waitlist!' and the home page 2 s later; a refusal shows the server's message, else 'Failed to register.'.
 */
export function WaitlistForm() {
  const { t } = useTranslation(['waitlist', 'marketing']);
  const errorId = useId();
  const navigate = useNavigate();
  const joinWaitlist = useJoinWaitlist();
  const [joined, setJoined] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<WaitlistValues>({ defaultValues: EMPTY, resolver });

  useEffect(() => {
    if (!joined) return undefined;
    const timer = window.setTimeout(() => void navigate('/'), WAITLIST_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [joined, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await joinWaitlist.mutateAsync(values);
      setJoined(true);
    } catch (error) {
      setError('root.server', { message: failureMessage(error, messages.waitlistFailed) });
    }
  });

  const shown = shownFormError(errors);
  const busy = isSubmitting || joined;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="relative max-w-xl space-y-5">
      <TextInput
        label={t('name')}
        autoComplete="name"
        required
        invalid={errors.username !== undefined}
        errorId={errorId}
        {...register('username')}
      />
      <TextInput
        label={t('email')}
        type="email"
        autoComplete="email"
        required
        invalid={errors.email !== undefined}
        errorId={errorId}
        {...register('email')}
      />
      <TextInput
        label={t('phone')}
        type="tel"
        autoComplete="tel"
        placeholder="+91 98765 43210"
        required
        invalid={errors.phonenumber !== undefined}
        errorId={errorId}
        {...register('phonenumber')}
      />
      <TextArea
        label={t('description')}
        hint={t('descriptionHint')}
        required
        invalid={errors.description !== undefined}
        errorId={errorId}
        {...register('description')}
      />
      <HoneypotField {...register('website')} />
      <FormAlert id={errorId} message={joined ? null : shown} />
      <FormStatus message={joined ? messages.waitlistJoined : null} />
      <button type="submit" disabled={busy} className={`${primaryButtonClass} ${submitButtonClassExtra}`}>
        {isSubmitting ? t('submitting') : t('submit')}
      </button>
    </form>
  );
}
