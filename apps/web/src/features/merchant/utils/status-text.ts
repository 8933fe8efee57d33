import i18n from 'i18next';

const KNOWN = [
  'completed',
  'pending',
  'voided',
  'reversed',
  'failed',
  'settled',
  'rejected',
  'expired',
] as const;

/**
 * A payment's or withdrawal's status word in the page's language; an unknown one as the server sent it. The
 * caller's `useTranslation('merchant')` re-renders it on a language switch.
 */
export function statusText(status: string): string {
  return (KNOWN as readonly string[]).includes(status)
    ? i18n.t(`merchant:statuses.${status as (typeof KNOWN)[number]}`)
    : status;
}
