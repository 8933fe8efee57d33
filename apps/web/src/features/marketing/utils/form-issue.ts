import type { FieldErrors, FieldValues, Path, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** The one problem a public form reports at a time, and the field it belongs to. */
export interface FormIssue<K extends string> {
  field: K;
  message: string;
}

interface FormRules<K extends string> {
  /** Checked first, in this order; an empty one gives `requiredMessage`. */
  required: readonly K[];
  requiredMessage: string;
  /** The endpoint's contract: its first issue (an email or phone format, a length) comes next. */
  schema: z.ZodType;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * The message a public form shows (spec §5): any empty required field first ('All fields are required.',
 * 'Please fill all required fields.'), then the contract's first complaint in field order, e.g. 'Please
 * enter a valid email address.' before 'Please enter a valid phone number.'. Null when the form may be sent.
 */
export function firstFormIssue<K extends string>(
  values: Readonly<Record<K, unknown>>,
  rules: FormRules<K>,
): FormIssue<K> | null {
  const empty = rules.required.find((field) => isBlank(values[field]));
  if (empty !== undefined) return { field: empty, message: rules.requiredMessage };

  const parsed = rules.schema.safeParse(values);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const path = issue?.path[0];
  const field = rules.required.find((name) => name === path) ?? (path as K | undefined) ?? rules.required[0];
  if (field === undefined) throw new Error('A form needs at least one required field');
  return { field, message: issue?.message ?? rules.requiredMessage };
}

/** A react-hook-form resolver reporting `firstFormIssue` on its field (so it is focused and marked). */
export function issueResolver<V extends FieldValues>(rules: FormRules<Path<V> & string>): Resolver<V> {
  return (values) => {
    const issue = firstFormIssue(values as Record<Path<V> & string, unknown>, rules);
    if (issue === null) return { values, errors: {} };
    const errors = { [issue.field]: { type: 'validate', message: issue.message } } as FieldErrors<V>;
    return { values: {}, errors };
  };
}

/** The message to show: the server's answer (kept as `root.server`) first, else the field's problem. */
export function shownFormError<V extends FieldValues>(errors: FieldErrors<V>): string | null {
  const server = errors.root?.['server']?.message;
  if (typeof server === 'string' && server !== '') return server;
  for (const [field, error] of Object.entries(errors)) {
    if (field === 'root') continue;
    const message: unknown = (error as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
}
