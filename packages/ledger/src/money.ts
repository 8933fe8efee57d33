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

/** The languages rupees are shown in. */
export type InrLocale = 'en-IN' | 'hi-IN';

/**
 * Whether a rupee text shows paise: always two digits ("₹12.00", the wallet's amounts), only when there are
 * any ("₹12", "₹12.50", the limits in messages), or never (whole rupees rounded half up, marketing figures).
 */
export type PaiseShown = 'always' | 'when-any' | 'never';

/** A decimal rupee text: "1234.50", "-12.5", "200000". */
const DECIMAL_RUPEES = /^-?\d+(\.\d+)?$/;
/** A decimal whose fraction is all zeros (or absent): whole rupees. */
const WHOLE_RUPEES = /^-?\d+(\.0+)?$/;

/** One Intl.NumberFormat per locale and fraction style (four at most), made on first use. */
const inrFormats = new Map<string, Intl.NumberFormat>();

function inrFormat(locale: InrLocale, wholeRupees: boolean): Intl.NumberFormat {
  const key = `${locale}:${wholeRupees ? 'whole' : 'paise'}`;
  let format = inrFormats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'INR',
      // Latin digits in Hindi too (₹1,234.50, as Indian apps show it): CLDR's default for hi-IN, made explicit.
      numberingSystem: 'latn',
      ...(wholeRupees ? { maximumFractionDigits: 0 } : {}),
    });
    inrFormats.set(key, format);
  }
  return format;
}

/**
 * Rupees as a person reads them, from a decimal string and never through a float: ("1234.50", 'en-IN') ->
 * "₹1,234.50"; with paise 'when-any', "200000.00" -> "₹2,00,000" and "1.50" -> "₹1.50". Amounts in paise go
 * through paiseToRupeesText first. A text that is not a decimal is returned as it came (a screen shows what
 * the server sent, never "NaN").
 */
export function formatInr(rupees: string, locale: InrLocale, options: { paise?: PaiseShown } = {}): string {
  const text = rupees.trim();
  if (!DECIMAL_RUPEES.test(text)) return text;
  const paise = options.paise ?? 'always';
  const wholeRupees = paise === 'never' || (paise === 'when-any' && WHOLE_RUPEES.test(text));
  return inrFormat(locale, wholeRupees).format(text as `${number}`);
}
