import type { ReactNode } from 'react';

/** A small status pill, e.g. "Coming Soon". Dark text on a light tint keeps contrast above 4.5:1. */
export function Badge({ children }: { children: ReactNode }) {
  return (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
      {children}
    </span>
  );
}
