/**
 * Money is integer paise (1 rupee = 100 paise) as bigint, end to end. Text from people and clients is parsed
 * here, never with parseFloat.
 */
export const PAISE_PER_RUPEE = 100n;

/** Up to 12 rupee digits keeps every amount far inside PostgreSQL's bigint. */
const RUPEES_PATTERN = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** "12", "12.5", "12.50" -> 1250n. Refuses signs, exponents, more than 2 decimals and anything else. */
export function parseRupees(text: string): bigint | null {
  const match = RUPEES_PATTERN.exec(text.trim());
  if (!match?.[1]) return null;
  const paise = (match[2] ?? '').padEnd(2, '0');
  return BigInt(match[1]) * PAISE_PER_RUPEE + BigInt(paise);
}

/** A JSON number of rupees (the spec's clients send `amount` as a number) -> paise, exactly. */
export function rupeesNumberToPaise(amount: number): bigint | null {
  if (!Number.isFinite(amount) || amount < 0) return null;
  // The shortest decimal text of a double is exact for what a person typed (0.1 -> "0.1").
  const text = String(amount);
  if (/e/i.test(text)) return null;
  return parseRupees(text);
}

/** 1250n -> "12.50": a decimal string, for display through Intl.NumberFormat. */
export function paiseToRupeesText(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const magnitude = paise < 0n ? -paise : paise;
  const rupees = magnitude / PAISE_PER_RUPEE;
  const rest = (magnitude % PAISE_PER_RUPEE).toString().padStart(2, '0');
  return `${sign}${rupees}.${rest}`;
}

const inrWhole = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});
const inrPaise = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** 20_000_000n -> "₹2,00,000"; 150n -> "₹1.50": rupees as a person reads them, paise only when there are any. */
export function formatInrPaise(paise: bigint): string {
  const text = paiseToRupeesText(paise) as `${number}`;
  return paise % PAISE_PER_RUPEE === 0n ? inrWhole.format(text) : inrPaise.format(text);
}
