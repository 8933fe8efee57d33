/** Shared Tailwind class lists, so buttons and links look the same everywhere. */
const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';

export const primaryButtonClass = `inline-flex items-center justify-center gap-2 rounded-lg bg-emerald-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-emerald-800 ${focusRing}`;

export const secondaryButtonClass = `inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm transition-colors hover:bg-slate-50 ${focusRing}`;

export const textLinkClass = `font-semibold text-emerald-700 underline-offset-4 hover:underline ${focusRing} rounded-sm`;

export const cardClass = 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';

export const dangerButtonClass = `inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-red-800 ${focusRing}`;

/** Disabled buttons keep their colours but dim and stop looking clickable. */
export const disabledClass = 'disabled:cursor-not-allowed disabled:opacity-60';

export const labelClass = 'block text-sm font-medium text-slate-800';

export const inputClass = `mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 aria-[invalid=true]:border-red-700 ${focusRing}`;

/** A button that reads as a link, for secondary actions inside forms. */
export const linkButtonClass = `${textLinkClass} text-sm disabled:cursor-not-allowed disabled:text-slate-600 disabled:no-underline`;
export { focusRing };
