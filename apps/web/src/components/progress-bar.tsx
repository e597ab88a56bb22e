/** A labelled progress bar (0-100), announced to assistive technology. */
export function ProgressBar({
  value,
  label,
  tone = 'indigo',
}: {
  value: number;
  label: string;
  tone?: 'indigo' | 'emerald' | 'red';
}) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  const colour =
    tone === 'emerald' ? 'bg-emerald-500' : tone === 'red' ? 'bg-red-500' : 'bg-indigo-600';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={`h-full rounded-full ${colour} transition-[width] duration-500`}
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
