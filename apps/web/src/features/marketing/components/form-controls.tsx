import { useId } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { focusRing } from '../../../components/ui-classes';

/** The public forms' fields: labelled, marked invalid with the form's alert as their description. */

const labelClass = 'block text-sm font-medium text-slate-800';
const controlClass = `mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 aria-[invalid=true]:border-red-700 ${focusRing}`;

interface FieldFrame {
  label: string;
  /** Marks the control invalid and points it at the form's alert. */
  invalid?: boolean;
  errorId?: string;
  hint?: ReactNode;
}

function describedBy(
  hintId: string | null,
  invalid: boolean,
  errorId: string | undefined,
): string | undefined {
  const ids = [hintId, invalid ? (errorId ?? null) : null].filter((id) => id !== null);
  return ids.length === 0 ? undefined : ids.join(' ');
}

function Hint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm text-slate-600">
      {children}
    </p>
  );
}

export function TextInput({
  label,
  invalid = false,
  errorId,
  hint,
  ...input
}: FieldFrame & Omit<ComponentProps<'input'>, 'className' | 'id'>) {
  const id = useId();
  const hintId = hint === undefined ? null : `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        aria-invalid={invalid}
        aria-describedby={describedBy(hintId, invalid, errorId)}
        className={controlClass}
        {...input}
      />
      {hintId === null ? null : <Hint id={hintId}>{hint}</Hint>}
    </div>
  );
}

export function TextArea({
  label,
  invalid = false,
  errorId,
  hint,
  ...textarea
}: FieldFrame & Omit<ComponentProps<'textarea'>, 'className' | 'id'>) {
  const id = useId();
  const hintId = hint === undefined ? null : `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <textarea
        id={id}
        rows={4}
        aria-invalid={invalid}
        aria-describedby={describedBy(hintId, invalid, errorId)}
        className={controlClass}
        {...textarea}
      />
      {hintId === null ? null : <Hint id={hintId}>{hint}</Hint>}
    </div>
  );
}

export function SelectInput({
  label,
  invalid = false,
  errorId,
  hint,
  placeholder,
  options,
  ...select
}: FieldFrame & {
  placeholder: string;
  options: ReadonlyArray<{ value: string; label: string }>;
} & Omit<ComponentProps<'select'>, 'className' | 'id' | 'children'>) {
  const id = useId();
  const hintId = hint === undefined ? null : `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        aria-invalid={invalid}
        aria-describedby={describedBy(hintId, invalid, errorId)}
        className={controlClass}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hintId === null ? null : <Hint id={hintId}>{hint}</Hint>}
    </div>
  );
}

export function Checkbox({
  label,
  ...input
}: { label: string } & Omit<ComponentProps<'input'>, 'type' | 'id'>) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className={`h-4 w-4 rounded border-slate-400 accent-emerald-700 ${focusRing}`}
        {...input}
      />
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}

/**
 * The honeypot (`website`): people never see or reach it, bots fill it and the server then stores nothing.
 * Hidden from sight, from assistive technology and from the tab order.
 */
export function HoneypotField(input: Omit<ComponentProps<'input'>, 'type' | 'id'>) {
  const { t } = useTranslation('marketing');
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>{t('form.honeypot')}</label>
      <input id={id} type="text" tabIndex={-1} autoComplete="off" {...input} />
    </div>
  );
}

export const submitButtonClassExtra = 'disabled:cursor-not-allowed disabled:opacity-60';
