import type { ReactNode } from 'react';

/** A page's main region with its title; every page has exactly one h1. */
export function Page({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children?: ReactNode;
}) {
  return (
    <main className="mx-auto w-full max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      {intro ? <p className="mt-2 max-w-2xl text-slate-600">{intro}</p> : null}
      <div className="mt-6">{children}</div>
    </main>
  );
}
