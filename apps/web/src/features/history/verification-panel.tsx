import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import { verificationSchema } from '@replatform/contracts/progress';
import { apiRequest } from '../../lib/api-client.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';

/** The record-by-record comparison of source and destination made after the run. */
export function VerificationPanel({ migrationId }: { migrationId: string }) {
  const verification = useQuery({
    queryKey: ['migrations', migrationId, 'verification'],
    queryFn: () =>
      apiRequest(
        `/api/migrations/${encodeURIComponent(migrationId)}/verification`,
        verificationSchema,
      ),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 5000 : false),
  });
  const v = verification.data;
  return (
    <section
      aria-labelledby="verification-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="verification-title" className="font-semibold">
        Verification
      </h2>
      {verification.isPending ? (
        <p role="status" className="mt-2 text-sm text-slate-600">
          Loading verification...
        </p>
      ) : !v || verification.isError ? (
        <p className="mt-2 text-sm text-slate-600">The verification result is not available.</p>
      ) : v.status === 'not-run' || v.status === 'running' ? (
        <p className="mt-2 text-sm text-slate-600">
          {v.status === 'running'
            ? 'Comparing source and destination record by record...'
            : 'Not verified yet.'}
        </p>
      ) : (
        <>
          <p
            className={`mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 font-medium ${v.status === 'passed' ? 'text-emerald-700' : 'text-red-700'}`}
          >
            <span className="flex items-center gap-2">
              {v.status === 'passed' ? (
                <CheckCircle2 size={18} aria-hidden />
              ) : (
                <XCircle size={18} aria-hidden />
              )}
              {v.status === 'passed'
                ? 'Every migrated record matches the source.'
                : 'Some records differ from the source.'}
            </span>
            {v.checkedAt ? (
              <span className="text-sm font-normal text-slate-500">
                Checked {formatDateTime(v.checkedAt)}
              </span>
            ) : null}
          </p>
          {/* On a phone the five columns do not fit: the table scrolls sideways inside its own box
              while the name of each row stays in view. */}
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[26rem] text-left text-sm tabular-nums">
              <thead className="text-slate-600">
                <tr>
                  <th scope="col" className="sticky left-0 bg-white py-1 pr-4">
                    Data
                  </th>
                  <th scope="col" className="pr-4">
                    Checked
                  </th>
                  <th scope="col" className="pr-4">
                    Matched
                  </th>
                  <th scope="col" className="pr-4">
                    Different
                  </th>
                  <th scope="col">Missing</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(v.entities).map(([entity, e]) => (
                  <tr key={entity} className="border-t border-slate-100">
                    <th
                      scope="row"
                      className="sticky left-0 bg-white py-1 pr-4 font-normal capitalize"
                    >
                      {entity}
                    </th>
                    <td className="pr-4">{formatCount(e.checked)}</td>
                    <td className="pr-4">{formatCount(e.matched)}</td>
                    <td className="pr-4">{formatCount(e.mismatched)}</td>
                    <td>{formatCount(e.missing)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {v.examples.length > 0 ? (
            <ul className="mt-3 space-y-1 text-sm break-words text-slate-700">
              {v.examples.map((x) => (
                <li key={`${x.entity}-${x.sourceId}`}>
                  <span className="capitalize">{x.entity}</span> {x.sourceId}: {x.detail}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
