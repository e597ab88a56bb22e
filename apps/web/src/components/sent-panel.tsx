import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';

const looks = {
  boxed: {
    panel: 'rounded-xl border border-emerald-200 bg-emerald-50 p-6 text-center sm:p-10',
    icon: 44,
    heading: 'mt-4 text-xl font-semibold text-emerald-900 focus:outline-none',
  },
  plain: {
    panel: 'py-6 text-center',
    icon: 48,
    heading: 'mt-4 text-2xl font-semibold text-slate-900 focus:outline-none',
  },
};

/**
 * What a form shows in its place once it has been sent: a check mark, a heading and what happens
 * next. The heading takes focus as the panel appears, so a screen reader announces it and the
 * keyboard carries on from there.
 */
export function SentPanel({
  title,
  level,
  look,
  children,
}: {
  title: string;
  level: 'h2' | 'h3';
  look: keyof typeof looks;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const Heading = level;
  const { panel, icon, heading: headingClass } = looks[look];
  return (
    <div className={panel}>
      <CheckCircle2 size={icon} aria-hidden className="mx-auto text-emerald-600" />
      <Heading ref={heading} tabIndex={-1} className={headingClass}>
        {title}
      </Heading>
      {children}
    </div>
  );
}
