import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { migrationNameMax, migrationNameTooLong } from '@replatform/contracts/migrations-api';
import { useCreateMigration } from '../api/migrations-api.ts';
import { chooseStore } from '../current-store.ts';

/**
 * 'Name Your Migration': a required, trimmed name of at most migrationNameMax characters (shown
 * with a counter); then the new migration opens at step 1.
 */
export function NewMigrationForm({ onCancel }: { onCancel?: () => void }) {
  const [name, setName] = useState('');
  const create = useCreateMigration();
  const navigate = useNavigate();
  const length = name.trim().length;
  const tooLong = length > migrationNameMax;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || tooLong) return;
    create.mutate(trimmed, {
      onSuccess: (m) => {
        // The new store is the current one now (the header stops reading New Store).
        chooseStore(m.id);
        navigate(`/migrations/${m.id}`);
      },
    });
  };
  return (
    <form
      onSubmit={submit}
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      aria-labelledby="new-migration-title"
    >
      <h2 id="new-migration-title" className="text-lg font-semibold">
        Name Your Migration
      </h2>
      <label htmlFor="migration-name" className="mt-4 block text-sm font-medium text-slate-700">
        Migration Name
      </label>
      <input
        id="migration-name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="e.g. Main store to Shopify"
        aria-invalid={tooLong}
        aria-describedby="migration-name-limit"
        className={`mt-1 w-full rounded-md border px-3 py-2 ${tooLong ? 'border-red-500' : 'border-slate-300'}`}
        autoFocus
      />
      <p
        id="migration-name-limit"
        className={`mt-1 flex justify-between gap-3 text-sm ${tooLong ? 'text-red-700' : 'text-slate-500'}`}
      >
        <span>Up to {migrationNameMax} characters</span>
        <span aria-live="polite">
          {length}/{migrationNameMax}
        </span>
      </p>
      {tooLong || create.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {tooLong ? migrationNameTooLong : create.error?.message}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-3">
        <button
          type="submit"
          disabled={create.isPending || !name.trim() || tooLong}
          className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
        >
          {create.isPending ? 'Creating...' : 'Create Migration'}
        </button>
        {onCancel ? (
          <button
            type="button"
            onClick={onCancel}
            className="rounded-md border border-slate-300 px-4 py-2"
          >
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
