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
  return (
    <button
      type="button"
      className={linkButtonClass}
      disabled={secondsLeft > 0 || pending}
      onClick={onResend}
    >
      {secondsLeft > 0 ? `Resend OTP in ${secondsLeft}s` : pending ? 'Sending...' : 'Resend OTP'}
    </button>
  );
}
