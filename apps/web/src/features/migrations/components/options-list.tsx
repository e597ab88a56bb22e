import {
  migrationOptionNames,
  migrationOptionTexts,
  optionsOf,
  type MigrationOptions,
} from '@replatform/contracts/migration';

/** The owner's additional options as a definition list: each option's name, and yes or no. */
export function OptionsList({
  options,
  className = 'mt-2 space-y-1 text-sm',
}: {
  options: MigrationOptions | undefined;
  className?: string;
}) {
  const chosen = optionsOf(options);
  return (
    <dl className={className}>
      {migrationOptionNames.map((option) => (
        <div key={option} className="flex justify-between gap-3">
          <dt className="text-slate-600">{migrationOptionTexts[option].label}</dt>
          <dd>{chosen[option] ? 'Yes' : 'No'}</dd>
        </div>
      ))}
    </dl>
  );
}
