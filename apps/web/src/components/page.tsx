import type { ReactNode } from 'react';

interface PageProps {
  /** The page's one h1 (the tab title comes from the route: see app/route-meta.tsx). */
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The standard frame of an inner page: one h1, an optional lead paragraph, then content. */
export function Page({ title, lead, children }: PageProps) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6 lg:px-8 lg:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {lead === undefined ? null : <p className="mt-3 max-w-3xl text-lg text-slate-600">{lead}</p>}
      {children === undefined ? null : <div className="mt-10">{children}</div>}
    </div>
  );
}
