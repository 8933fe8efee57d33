import { messages } from '@hasta/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../lib/api-client';
import { formatDateTime } from '../lib/i18n-format';
import {
  approveEnrolmentRequest,
  declineEnrolmentRequest,
  fetchWaitingEnrolmentRequests,
  palmTrustKeys,
} from '../lib/palm-trust';
import type { EnrolmentRequest } from '../lib/palm-trust';
import { CodeChannelBadge, FormAlert, OtpField } from './form-field';
import { cardClass, disabledClass, primaryButtonClass, secondaryButtonClass } from './ui-classes';

/**
 * Palm registrations an admin at Hasta started on the signed-in person's account (issue 21): nothing is
 * registered until they approve it here with the code sent to their own phone or email, or decline it.
 * Shows nothing when none is waiting.
 */
export function WaitingPalmRegistrations({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation('app');
  const queryClient = useQueryClient();
  const waiting = useQuery({
    queryKey: palmTrustKeys.enrolmentRequests,
    queryFn: ({ signal }) => fetchWaitingEnrolmentRequests(signal),
    refetchOnMount: 'always',
  });
  if (waiting.data === undefined || waiting.data.length === 0) return null;
  const done = (): void => {
    void queryClient.invalidateQueries({ queryKey: palmTrustKeys.enrolmentRequests });
    onChanged();
  };
  return (
    <section
      aria-labelledby="palm-requests-heading"
      className={`${cardClass} mb-6 space-y-4 border-amber-300`}
    >
      <h2 id="palm-requests-heading" className="text-xl font-semibold text-slate-900">
        {t('waitingPalm.heading')}
      </h2>
      <p className="text-slate-800">{t('waitingPalm.body')}</p>
      <ul className="space-y-4">
        {waiting.data.map((request) => (
          <li key={request.id}>
            <WaitingRequest request={request} onDone={done} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function WaitingRequest({ request, onDone }: { request: EnrolmentRequest; onDone: () => void }) {
  const { t } = useTranslation('app');
  const handName = t(request.which_hand === 'left' ? 'waitingPalm.left' : 'waitingPalm.right');
  const id = useId();
  const alertId = `${id}-alert`;
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'approve' | 'decline' | null>(null);

  const approve = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy !== null) return;
    if (!/^\d{6}$/.test(otp)) {
      setError(messages.invalidOtp);
      return;
    }
    setBusy('approve');
    setError(null);
    try {
      toast.success((await approveEnrolmentRequest(request.id, otp)).message);
      onDone();
    } catch (cause) {
      setError(errorMessage(cause, messages.palmRegistrationFailed));
      setBusy(null);
    }
  };

  const decline = async (): Promise<void> => {
    if (busy !== null) return;
    setBusy('decline');
    setError(null);
    try {
      toast.success((await declineEnrolmentRequest(request.id)).message);
      onDone();
    } catch (cause) {
      setError(errorMessage(cause, messages.palmRegistrationFailed));
      setBusy(null);
    }
  };

  return (
    <form
      noValidate
      aria-label={t('waitingPalm.formLabel', { hand: handName })}
      className="space-y-3 rounded-lg border border-slate-300 p-4"
      onSubmit={(event) => void approve(event)}
    >
      <p className="font-semibold text-slate-900">
        {t('waitingPalm.started', { hand: handName, when: formatDateTime(request.created_at) })}
      </p>
      <p className="text-sm text-slate-700">
        <CodeChannelBadge channel={request.channel} className="mr-2" />
        {t('waitingPalm.codeSentTo', { to: request.sent_to })}
      </p>
      <OtpField
        label={t('waitingPalm.code')}
        autoComplete="one-time-code"
        value={otp}
        invalid={error !== null}
        errorId={alertId}
        onCode={setOtp}
      />
      <FormAlert id={alertId} message={error} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy !== null}>
          {busy === 'approve' ? t('waitingPalm.approving') : t('waitingPalm.approve')}
        </button>
        <button
          type="button"
          className={`${secondaryButtonClass} ${disabledClass}`}
          disabled={busy !== null}
          onClick={() => void decline()}
        >
          {busy === 'decline' ? t('waitingPalm.declining') : t('waitingPalm.decline')}
        </button>
      </div>
    </form>
  );
}
