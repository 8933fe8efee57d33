const inrFormat = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** A decimal rupee string from the server ("1234.50") as INR currency text; never through a float. */
export function formatInr(decimal: string): string {
  const text = decimal.trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  return inrFormat.format(text as `${number}`);
}

const dateTimeFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An ISO time as en-IN date and time with a short month; the raw text if it does not parse. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}
