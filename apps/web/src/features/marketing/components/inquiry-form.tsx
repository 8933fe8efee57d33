import { INQUIRY_ROLES } from '@hasta/contracts/constants';
import { inquiryRequestSchema } from '@hasta/contracts/forms';
import { messages } from '@hasta/contracts/messages';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { primaryButtonClass } from '../../../components/ui-classes';
import { failureMessage, useSendInquiry } from '../api/public-forms';
import { issueResolver, shownFormError } from '../utils/form-issue';
import { FormAlert, FormStatus } from '../../../components/form-field';
import { HoneypotField, SelectInput, TextArea, TextInput, submitButtonClassExtra } from './form-controls';

interface InquiryValues {
  name: string;
  email_or_phone: string;
  role: string;
  message: string;
  website: string;
}

const EMPTY: InquiryValues = { name: '', email_or_phone: '', role: '', message: '', website: '' };

const resolver = issueResolver<InquiryValues>({
  required: ['name', 'email_or_phone', 'role', 'message'],
  requiredMessage: messages.fillAllRequired,
  schema: inquiryRequestSchema,
});

/** The general inquiry (spec §5.2): 'Request sent!' and a cleared form on 201. */
export function InquiryForm({ titleId }: { titleId: string }) {
  const { t } = useTranslation(['contact', 'marketing']);
  const errorId = useId();
  const sendInquiry = useSendInquiry();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<InquiryValues>({ defaultValues: EMPTY, resolver });

  const onSubmit = handleSubmit(async (values) => {
    setSent(false);
    try {
      // The resolver accepted the role, so it is one of INQUIRY_ROLES.
      await sendInquiry.mutateAsync({ ...values, role: values.role as (typeof INQUIRY_ROLES)[number] });
      reset(EMPTY);
      setSent(true);
    } catch (error) {
      setError('root.server', { message: failureMessage(error, messages.requestFailed) });
    }
  });

  return (
    <form
      noValidate
      aria-labelledby={titleId}
      onSubmit={(event) => void onSubmit(event)}
      className="relative space-y-5"
    >
      <TextInput
        label={t('inquiry.name')}
        autoComplete="name"
        required
        invalid={errors.name !== undefined}
        errorId={errorId}
        {...register('name')}
      />
      <TextInput
        label={t('inquiry.emailOrPhone')}
        autoComplete="email"
        required
        invalid={errors.email_or_phone !== undefined}
        errorId={errorId}
        {...register('email_or_phone')}
      />
      <SelectInput
        label={t('inquiry.role')}
        placeholder={t('inquiry.rolePlaceholder')}
        options={INQUIRY_ROLES.map((role) => ({ value: role, label: t(`inquiry.roles.${role}`) }))}
        required
        invalid={errors.role !== undefined}
        errorId={errorId}
        {...register('role')}
      />
      <TextArea
        label={t('inquiry.message')}
        required
        invalid={errors.message !== undefined}
        errorId={errorId}
        {...register('message')}
      />
      <HoneypotField {...register('website')} />
      <FormAlert id={errorId} message={shownFormError(errors)} />
      <FormStatus message={sent ? messages.requestSent : null} />
      <button
        type="submit"
        disabled={isSubmitting}
        className={`${primaryButtonClass} ${submitButtonClassExtra}`}
      >
        {isSubmitting ? t('marketing:form.sending') : t('inquiry.submit')}
      </button>
    </form>
  );
}
