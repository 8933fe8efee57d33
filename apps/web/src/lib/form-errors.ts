import type { FieldErrors, FieldValues } from 'react-hook-form';

/**
 * The one message a form shows: the server's answer (kept as `root.server`) first, else the first field
 * error. The auth forms' schemas report one issue at a time, in the spec's order.
 */
export function formErrorMessage<T extends FieldValues>(errors: FieldErrors<T>): string | null {
  const server = errors.root?.['server']?.message;
  if (typeof server === 'string' && server !== '') return server;
  for (const [field, error] of Object.entries(errors)) {
    if (field === 'root') continue;
    const message: unknown = (error as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
}
