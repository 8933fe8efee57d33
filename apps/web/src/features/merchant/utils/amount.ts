import { messages } from '@hasta/contracts/messages';
import { parseRupees } from '@hasta/ledger/money';

export type AmountCheck = { ok: true; paise: bigint; text: string } | { ok: false; error: string };

/**
 * A rupee amount typed into a store form (spec §5.9: required and numeric; above 0, at most 2 decimals as
 * everywhere money is typed). The first problem, or the amount in paise with its trimmed text.
 */
export function checkAmount(typed: string): AmountCheck {
  const text = typed.trim();
  if (text === '') return { ok: false, error: messages.amountRequired };
  const paise = parseRupees(text);
  if (paise === null) {
    return {
      ok: false,
      error: /^\d*\.\d{3,}$/.test(text) ? messages.amountTooPrecise : messages.amountPositive,
    };
  }
  if (paise <= 0n) return { ok: false, error: messages.amountPositive };
  return { ok: true, paise, text };
}

/** An optional amount (a QR code's fixed amount): empty is none, anything else must be a valid amount. */
export function checkOptionalAmount(typed: string): AmountCheck | { ok: true; paise: null; text: null } {
  return typed.trim() === '' ? { ok: true, paise: null, text: null } : checkAmount(typed);
}
