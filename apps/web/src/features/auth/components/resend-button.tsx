import { useTranslation } from 'react-i18next';
import { linkButtonClass } from '../../../components/ui-classes';

/** 'Resend OTP', disabled with 'Resend OTP in {n}s' while the cooldown runs (spec §4, §5.11). */
export function ResendButton({
  secondsLeft,
  pending,
  onResend,
}: {
  secondsLeft: number;
  pending: boolean;
  onResend: () => void;
}) {
  const { t } = useTranslation('auth');
  return (
    <button
      type="button"
      className={linkButtonClass}
      disabled={secondsLeft > 0 || pending}
      onClick={onResend}
    >
      {secondsLeft > 0
        ? t('resend.wait', { seconds: secondsLeft })
        : pending
          ? t('loginForm.sending')
          : t('resend.resend')}
    </button>
  );
}
