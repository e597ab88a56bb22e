import { mappingSummary, type FieldMappings } from '@replatform/contracts/migration';

/**
 * The owner's mappings (order statuses, customer groups, tax classes, currency) as a definition
 * list, or a line saying every value keeps its own.
 */
export function MappingsList({
  mappings,
  className = 'mt-2 space-y-1 text-sm',
}: {
  mappings: FieldMappings | undefined;
  className?: string;
}) {
  const lines = mappingSummary(mappings);
  if (!lines.length)
    return <p className="mt-2 text-sm text-slate-600">Every value keeps its own.</p>;
  return (
    <dl className={className}>
      {lines.map(({ label, text }) => (
        <div key={label} className="flex flex-wrap justify-between gap-x-3">
          <dt className="text-slate-600">{label}</dt>
          <dd className="min-w-0 break-words">{text}</dd>
        </div>
      ))}
    </dl>
  );
}
