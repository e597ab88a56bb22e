import { Download, Undo2 } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { confirmsUndo, type UndoMigration } from '@replatform/contracts/undo-migration';
import { dataTypeLabels } from '@replatform/contracts/migration';
import { BusyButton, TextField } from '../../components/form-fields.tsx';
import { Modal } from '../../components/modal.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { ApiRequestError } from '../../lib/api-client.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { useStartUndo, useUndo } from './undo-api.ts';

const labels: Record<string, string> = {
  ...dataTypeLabels,
  categories: 'Categories',
  assets: 'Images and terms',
};
const labelOf = (entity: string) => labels[entity] ?? entity;
const outcomeLabels: Record<UndoMigration['records'][number]['outcome'], string> = {
  removed: 'Removed',
  gone: 'Already gone',
  kept: 'Kept',
  failed: 'Not removed',
};

/** What an undo did, in one line a person reads. */
export function undoSummary(undo: UndoMigration): string {
  const sum = (key: 'removed' | 'gone' | 'kept' | 'failed') =>
    Object.entries(undo.entities)
      .filter(([entity]) => entity !== 'assets')
      .reduce((n, [, e]) => n + e[key], 0);
  const parts = [`${formatCount(sum('removed'))} records removed`];
  if (sum('gone')) parts.push(`${formatCount(sum('gone'))} already gone`);
  if (sum('kept')) parts.push(`${formatCount(sum('kept'))} kept`);
  if (sum('failed')) parts.push(`${formatCount(sum('failed'))} could not be removed`);
  return parts.join(', ');
}

function ConfirmUndo({
  undo,
  onClose,
  onConfirm,
  busy,
  error,
}: {
  undo: UndoMigration;
  onClose: () => void;
  onConfirm: (name: string) => void;
  busy: boolean;
  error: string | undefined;
}) {
  const [typed, setTyped] = useState('');
  const matches = confirmsUndo(typed, undo.confirmName);
  const total = Object.values(undo.created).reduce((n, c) => n + c, 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) onConfirm(typed);
  };
  return (
    <Modal title="Undo this migration?" onClose={onClose} tone="error">
      <form onSubmit={submit} className="space-y-4 text-sm">
        <p>
          This removes from your destination store the {formatCount(total)} records this migration
          created:
        </p>
        <ul className="list-inside list-disc text-slate-600">
          {Object.entries(undo.created).map(([entity, count]) => (
            <li key={entity}>
              {labelOf(entity)}: {formatCount(count)}
            </li>
          ))}
        </ul>
        <p>
          Records you had before the migration are never touched, and a record you changed since the
          migration is kept and listed. Undo is free. It cannot be reversed, but you can run the
          migration again.
        </p>
        <TextField
          label={`Type the store name "${undo.confirmName}" to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          error={error}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <BusyButton
            type="button"
            variant="secondary"
            busy={false}
            disabled={busy}
            onClick={onClose}
            fullWidth={false}
          >
            Keep the records
          </BusyButton>
          <BusyButton busy={busy} disabled={!matches || busy} variant="danger" fullWidth={false}>
            Remove the migrated records
          </BusyButton>
        </div>
      </form>
    </Modal>
  );
}

/**
 * "Undo this migration" on the detail page of a completed or failed migration: a confirmation
 * that asks for the store's name, then the undo's progress per data type and its report (what was
 * kept and why), with the CSV of every record.
 */
export function UndoPanel({ migrationId }: { migrationId: string }) {
  const undo = useUndo(migrationId);
  const start = useStartUndo(migrationId);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const data = undo.data;
  if (!data) return null;
  const live = data.state === 'queued' || data.state === 'running';
  const totals = Object.values(data.entities).reduce(
    (t, e) => ({ total: t.total + e.total, done: t.done + e.removed + e.gone + e.kept + e.failed }),
    { total: 0, done: 0 },
  );
  const notRemoved = data.records.filter((r) => r.outcome === 'kept' || r.outcome === 'failed');
  const error =
    start.error instanceof ApiRequestError
      ? start.error.message
      : start.error
        ? 'The undo could not be started. Try again.'
        : undefined;
  return (
    <section
      aria-labelledby="undo-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="undo-title" className="font-semibold">
        Undo this migration
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Removes from your destination store exactly the records this migration created, with the
        images and terms made only for them. Free.
      </p>

      {data.state !== 'none' ? (
        <div className="mt-4 space-y-3" aria-live="polite">
          <p className="text-sm font-medium">
            {live
              ? data.state === 'queued'
                ? 'Undo queued...'
                : `Removing records... ${formatCount(totals.done)} of ${formatCount(totals.total)}`
              : data.state === 'completed'
                ? `Undone ${formatDateTime(data.finishedAt)}: ${undoSummary(data)}.`
                : `The undo stopped: ${data.message ?? ''}`}
          </p>
          {live ? (
            <ProgressBar
              label="Undo progress"
              value={totals.total ? (totals.done / totals.total) * 100 : 0}
            />
          ) : null}
          <ul className="grid gap-1 text-sm sm:grid-cols-2">
            {Object.entries(data.entities).map(([entity, e]) => (
              <li
                key={entity}
                className="flex justify-between gap-2 rounded bg-slate-50 px-3 py-1.5"
              >
                <span>{labelOf(entity)}</span>
                <span>
                  {formatCount(e.removed + e.gone)} of {formatCount(e.total)} removed
                  {e.kept ? ` · ${formatCount(e.kept)} kept` : ''}
                  {e.failed ? ` · ${formatCount(e.failed)} not removed` : ''}
                </span>
              </li>
            ))}
          </ul>
          {notRemoved.length ? (
            <details className="text-sm">
              <summary className="cursor-pointer font-medium">
                Records left in your store ({formatCount(notRemoved.length)}) and why
              </summary>
              <ul className="mt-2 space-y-1">
                {notRemoved.map((r) => (
                  <li key={`${r.entity}:${r.sourceId}`} className="break-words">
                    <span className="font-medium">
                      {outcomeLabels[r.outcome]}: {labelOf(r.entity)} {r.destinationId}
                    </span>{' '}
                    <span className="text-slate-600">{r.reason}</span>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {!live ? (
            <a
              href={`/api/migrations/${encodeURIComponent(migrationId)}/undo/report.csv`}
              download
              className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:border-slate-400"
            >
              <Download size={14} aria-hidden /> Download undo report (CSV)
            </a>
          ) : null}
        </div>
      ) : null}

      {!live ? (
        <div className="mt-4">
          {data.available ? (
            <button
              ref={opener}
              type="button"
              onClick={() => {
                start.reset();
                setOpen(true);
              }}
              className="inline-flex items-center gap-1 rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50"
            >
              <Undo2 size={16} aria-hidden />{' '}
              {data.state === 'none' ? 'Undo this migration' : 'Undo again'}
            </button>
          ) : data.state === 'none' && data.unavailableReason ? (
            <p className="text-sm text-slate-600">{data.unavailableReason}</p>
          ) : null}
        </div>
      ) : null}

      {open ? (
        <ConfirmUndo
          undo={data}
          busy={start.isPending}
          error={error}
          onClose={() => setOpen(false)}
          onConfirm={(name) =>
            start.mutate(name, {
              onSuccess: () => setOpen(false),
            })
          }
        />
      ) : null}
    </section>
  );
}
