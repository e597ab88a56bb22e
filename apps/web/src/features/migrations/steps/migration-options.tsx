import {
  migrationOptionNames,
  migrationOptionTexts,
  optionNote,
  type Migration,
  type MigrationOptions,
} from '@replatform/contracts/migration';

/**
 * The "Additional options" of Select Data: one switch per option, each with its line of
 * explanation and, where the destination platform does it otherwise, what it does instead.
 */
export function MigrationOptionsPanel({
  value,
  onChange,
  destination,
  disabled,
}: {
  value: Required<MigrationOptions>;
  onChange: (value: Required<MigrationOptions>) => void;
  destination: Migration['destinationStore'];
  disabled: boolean;
}) {
  return (
    <fieldset className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 font-semibold">Additional options</legend>
      <ul className="space-y-4">
        {migrationOptionNames.map((option) => {
          const id = `option-${option}`;
          const { label, explanation } = migrationOptionTexts[option];
          const note = destination ? optionNote(option, destination) : null;
          return (
            <li key={option} className="flex gap-3">
              <input
                id={id}
                type="checkbox"
                checked={value[option]}
                disabled={disabled}
                onChange={(event) => onChange({ ...value, [option]: event.target.checked })}
                aria-describedby={`${id}-explained`}
                className="mt-1 h-4 w-4 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
              />
              <div>
                <label htmlFor={id} className="text-sm font-medium">
                  {label}
                </label>
                <p id={`${id}-explained`} className="text-sm text-slate-600">
                  {explanation}
                  {note ? <span className="mt-1 block text-amber-800">{note}</span> : null}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
