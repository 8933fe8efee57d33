import { VENDOR_INTERESTS } from '@hasta/contracts/constants';
import { vendorRegistrationRequestSchema } from '@hasta/contracts/forms';
import { messages } from '@hasta/contracts/messages';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { primaryButtonClass } from '../../../components/ui-classes';
import { failureMessage, useRegisterVendor } from '../api/public-forms';
import { issueResolver, shownFormError } from '../utils/form-issue';
import { FormAlert, FormStatus } from '../../../components/form-field';
import { Checkbox, HoneypotField, TextArea, TextInput, submitButtonClassExtra } from './form-controls';

type VendorInterest = (typeof VENDOR_INTERESTS)[number];

/** Each interest's label in `contact:vendor.interestOptions`; the value sent is the spec's label. */
const INTEREST_KEYS = {
  'PalmPOS Integration': 'pos',
  'PalmKiosk Setup': 'kiosk',
  'API Integration': 'api',
} as const satisfies Record<VendorInterest, string>;

interface VendorValues {
  business_name: string;
  owner_name: string;
  email: string;
  phone: string;
  address: string;
  interests: VendorInterest[];
  comments: string;
  website: string;
}

const EMPTY: VendorValues = {
  business_name: '',
  owner_name: '',
  email: '',
  phone: '',
  address: '',
  interests: [],
  comments: '',
  website: '',
};

const resolver = issueResolver<VendorValues>({
  required: ['business_name', 'owner_name', 'email', 'phone', 'address'],
  requiredMessage: messages.fillAllRequired,
  schema: vendorRegistrationRequestSchema,
});

/** Vendor registration (spec §5.3): 'Request sent!' and a cleared form on 201. */
export function VendorForm({ titleId }: { titleId: string }) {
  const { t } = useTranslation(['contact', 'marketing']);
  const errorId = useId();
  const registerVendor = useRegisterVendor();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<VendorValues>({ defaultValues: EMPTY, resolver });

  const onSubmit = handleSubmit(async (values) => {
    setSent(false);
    try {
      await registerVendor.mutateAsync(values);
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
        label={t('vendor.businessName')}
        autoComplete="organization"
        required
        invalid={errors.business_name !== undefined}
        errorId={errorId}
        {...register('business_name')}
      />
      <TextInput
        label={t('vendor.ownerName')}
        autoComplete="name"
        required
        invalid={errors.owner_name !== undefined}
        errorId={errorId}
        {...register('owner_name')}
      />
      <TextInput
        label={t('vendor.email')}
        type="email"
        autoComplete="email"
        required
        invalid={errors.email !== undefined}
        errorId={errorId}
        {...register('email')}
      />
      <TextInput
        label={t('vendor.phone')}
        type="tel"
        autoComplete="tel"
        required
        invalid={errors.phone !== undefined}
        errorId={errorId}
        {...register('phone')}
      />
      <TextInput
        label={t('vendor.address')}
        autoComplete="street-address"
        required
        invalid={errors.address !== undefined}
        errorId={errorId}
        {...register('address')}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('vendor.interests')}</legend>
        <div className="mt-2 space-y-2">
          {VENDOR_INTERESTS.map((interest) => (
            <Checkbox
              key={interest}
              label={t(`vendor.interestOptions.${INTEREST_KEYS[interest]}`)}
              value={interest}
              {...register('interests')}
            />
          ))}
        </div>
      </fieldset>
      <TextArea label={t('vendor.comments')} {...register('comments')} />
      <HoneypotField {...register('website')} />
      <FormAlert id={errorId} message={shownFormError(errors)} />
      <FormStatus message={sent ? messages.requestSent : null} />
      <button
        type="submit"
        disabled={isSubmitting}
        className={`${primaryButtonClass} ${submitButtonClassExtra}`}
      >
        {isSubmitting ? t('marketing:form.sending') : t('vendor.submit')}
      </button>
    </form>
  );
}
