import { PREMISES_OPTIONS } from '@hasta/contracts/constants';
import { kioskApplicationRequestSchema } from '@hasta/contracts/forms';
import { messages } from '@hasta/contracts/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { primaryButtonClass } from '../../../components/ui-classes';
import { failureMessage, useApplyToHostKiosk } from '../api/public-forms';
import { issueResolver, shownFormError } from '../utils/form-issue';
import { FormAlert, FormStatus } from '../../../components/form-field';
import { Checkbox, HoneypotField, SelectInput, TextInput, submitButtonClassExtra } from './form-controls';

interface HostValues {
  name: string;
  email: string;
  phone: string;
  address: string;
  premises: string;
  footfall: string;
  power: boolean;
  internet: boolean;
  website: string;
}

const EMPTY: HostValues = {
  name: '',
  email: '',
  phone: '',
  address: '',
  premises: '',
  footfall: '',
  power: false,
  internet: false,
  website: '',
};

const resolver = issueResolver<HostValues>({
  required: ['name', 'email', 'phone', 'address', 'premises', 'footfall'],
  requiredMessage: messages.fillAllRequired,
  schema: kioskApplicationRequestSchema,
});

/**
 * The host-a-kiosk application (spec §5.1): idle, then the thank-you after a valid submit. The dialog
 * mounts it afresh each time it opens, so closing resets it to empty and idle.
 */
export function HostKioskForm() {
  const { t } = useTranslation('marketing');
  const errorId = useId();
  const apply = useApplyToHostKiosk();
  const [submitted, setSubmitted] = useState(false);
  const thanksRef = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<HostValues>({ defaultValues: EMPTY, resolver });

  const onSubmit = handleSubmit(async (values) => {
    try {
      // The resolver accepted the premises, so it is one of PREMISES_OPTIONS.
      await apply.mutateAsync({ ...values, premises: values.premises as (typeof PREMISES_OPTIONS)[number] });
      setSubmitted(true);
    } catch (error) {
      setError('root.server', { message: failureMessage(error, messages.requestFailed) });
    }
  });

  // The form (and the focused submit button) goes away: focus moves to the thank-you.
  useEffect(() => {
    if (submitted) thanksRef.current?.focus();
  }, [submitted]);

  return (
    <>
      <div ref={thanksRef} tabIndex={-1} className="focus:outline-none">
        <FormStatus message={submitted ? messages.hostThankYou : null} />
      </div>
      {submitted ? null : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="relative space-y-4">
          <p className="text-sm">{t('host.intro')}</p>
          <TextInput
            label={t('host.name')}
            autoComplete="name"
            required
            invalid={errors.name !== undefined}
            errorId={errorId}
            {...register('name')}
          />
          <TextInput
            label={t('host.email')}
            type="email"
            autoComplete="email"
            required
            invalid={errors.email !== undefined}
            errorId={errorId}
            {...register('email')}
          />
          <TextInput
            label={t('host.phone')}
            type="tel"
            autoComplete="tel"
            required
            invalid={errors.phone !== undefined}
            errorId={errorId}
            {...register('phone')}
          />
          <TextInput
            label={t('host.address')}
            autoComplete="street-address"
            required
            invalid={errors.address !== undefined}
            errorId={errorId}
            {...register('address')}
          />
          <SelectInput
            label={t('host.premises')}
            placeholder={t('host.premisesPlaceholder')}
            options={PREMISES_OPTIONS.map((option) => ({
              value: option,
              label: t(`host.premisesOptions.${option}`),
            }))}
            required
            invalid={errors.premises !== undefined}
            errorId={errorId}
            {...register('premises')}
          />
          <TextInput
            label={t('host.footfall')}
            hint={t('host.footfallHint')}
            inputMode="numeric"
            required
            invalid={errors.footfall !== undefined}
            errorId={errorId}
            {...register('footfall')}
          />
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">{t('host.facilities')}</legend>
            <div className="mt-2 space-y-2">
              <Checkbox label={t('host.power')} {...register('power')} />
              <Checkbox label={t('host.internet')} {...register('internet')} />
            </div>
          </fieldset>
          <HoneypotField {...register('website')} />
          <FormAlert id={errorId} message={shownFormError(errors)} />
          <button
            type="submit"
            disabled={isSubmitting}
            className={`${primaryButtonClass} ${submitButtonClassExtra}`}
          >
            {isSubmitting ? t('host.submitting') : t('host.submit')}
          </button>
        </form>
      )}
    </>
  );
}
