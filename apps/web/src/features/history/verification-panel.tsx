import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, RefreshCw, XCircle } from 'lucide-react';
import { verificationSchema } from '@replatform/contracts/progress';
import { apiRequest } from '../../lib/api-client.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';

/**
 * The record-by-record comparison of source and destination made after the run, and (for a
 * completed migration) "Verify again": a full comparison that reads both stores again, run in
 * the background and shown here as running until its result is in.
 */
export function VerificationPanel({
  migrationId,
  canVerifyAgain = false,
}: {
  migrationId: string;
  canVerifyAgain?: boolean;
}) {
  const queryClient = useQueryClient();
  const queryKey = ['migrations', migrationId, 'verification'];
  const verifyAgain = useMutation({
    mutationFn: () =>
      apiRequest(`/api/migrations/${encodeURIComponent(migrationId)}/verify`, verificationSchema, {
        method: 'POST',
      }),
    onSuccess: (running) => queryClient.setQueryData(queryKey, running),
  });
  const verification = useQuery({
    queryKey,
    queryFn: () =>
      apiRequest(
        `/api/migrations/${encodeURIComponent(migrationId)}/verification`,
        verificationSchema,
      ),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 5000 : false),
  });
  const v = verification.data;
  const known = v?.knownDifferences.reduce((sum, d) => sum + d.records, 0) ?? 0;
  return (
    <section
      aria-labelledby="verification-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="verification-title" className="font-semibold">
          Verification
        </h2>
        {canVerifyAgain && (v?.status === 'passed' || v?.status === 'failed') ? (
          <button
            type="button"
            onClick={() => verifyAgain.mutate()}
            disabled={verifyAgain.isPending}
            className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 disabled:opacity-50"
          >
            <RefreshCw size={14} aria-hidden />
            {verifyAgain.isPending ? 'Starting...' : 'Verify again'}
          </button>
        ) : null}
      </div>
      {verifyAgain.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {verifyAgain.error.message}
        </p>
      ) : null}
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
              {v.status !== 'passed'
                ? 'Some records differ from the source.'
                : known === 0
                  ? 'Every migrated record matches the source.'
                  : `Completed with ${formatCount(known)} known ${known === 1 ? 'difference' : 'differences'}: every other field matches the source.`}
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
          {v.knownDifferences.length > 0 ? (
            <div className="mt-4">
              <h3 className="text-sm font-semibold">Known differences</h3>
              <p className="text-sm text-slate-600">
                What the destination cannot hold, field by field. The report names each record.
              </p>
              <ul className="mt-2 space-y-2 text-sm text-slate-700">
                {v.knownDifferences.map((d) => (
                  <li key={`${d.entity}-${d.field}-${d.reason}`}>
                    <span className="capitalize">{d.entity}</span>{' '}
                    <code className="rounded bg-slate-100 px-1">{d.field}</code> (
                    {formatCount(d.records)} {d.records === 1 ? 'record' : 'records'}): {d.reason}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
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
