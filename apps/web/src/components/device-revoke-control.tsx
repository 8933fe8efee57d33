import { formatDateTime } from '../lib/i18n-format';
import { dangerButtonClass, disabledClass } from './ui-classes';

/**
 * A device's one-click Remove (issue 22), or when it was removed: the store's Terminals tab and the admin's
 * Devices tab. The device's name is read to screen readers after the label, and is data (not translated).
 */
export function DeviceRevokeControl({
  name,
  revokedAt,
  pending,
  onRevoke,
  label,
  revokedOn,
  revokedClassName = 'text-slate-700',
}: {
  name: string;
  revokedAt: string | null;
  pending: boolean;
  onRevoke: () => void;
  /** The button's visible label ("Remove"). */
  label: string;
  /** The removed device's text, given the time it was removed. */
  revokedOn: (time: string) => string;
  revokedClassName?: string;
}) {
  if (revokedAt !== null)
    return <span className={revokedClassName}>{revokedOn(formatDateTime(revokedAt))}</span>;
  return (
    <button
      type="button"
      className={`${dangerButtonClass} ${disabledClass}`}
      disabled={pending}
      onClick={onRevoke}
    >
      {label}
      <span className="sr-only" translate="no">
        {' '}
        {name}
      </span>
    </button>
  );
}
