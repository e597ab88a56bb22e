import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { dataTypeNames, platformLabels, type Migration } from '@replatform/contracts/migration';

/** Step 5: summary and a link to the migration's history page. */
export function CompleteStep({ migration }: { migration: Migration }) {
  const types = dataTypeNames.filter((t) => migration.dataTypes[t]);
  const label = (p: Migration['sourceStore']) => (p ? platformLabels[p] : 'Not specified');
  return (
    <section
      aria-labelledby="complete-title"
      className="rounded-xl border border-emerald-200 bg-emerald-50 p-6"
    >
      <CheckCircle2 className="text-emerald-600" size={40} aria-hidden />
      <h2 id="complete-title" className="mt-3 text-2xl font-semibold text-emerald-900">
        Migration Complete!
      </h2>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-emerald-800">Source</dt>
          <dd className="font-medium">{label(migration.sourceStore)}</dd>
        </div>
        <div>
          <dt className="text-emerald-800">Destination</dt>
          <dd className="font-medium">{label(migration.destinationStore)}</dd>
        </div>
        <div>
          <dt className="text-emerald-800">Migrated data</dt>
          <dd className="font-medium capitalize">{types.join(', ') || 'None'}</dd>
        </div>
      </dl>
      <Link
        to={`/migration-history/${migration.id}`}
        className="mt-6 inline-block rounded-md bg-emerald-600 px-4 py-2 font-medium text-white hover:bg-emerald-700"
      >
        View migration details
      </Link>
    </section>
  );
}
