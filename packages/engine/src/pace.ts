import type { Connection } from '@replatform/connectors/kit/contract';
import { rateUsageOf } from './migrate.ts';

/** A published limit used at least this much is the store's pace, not ours. */
const fullUse = 0.85;
/** Requests waiting for the store on average over a sample's span: it answers as fast as it can. */
const waitingShare = 0.5;

/**
 * Which store sets a run's pace, asked at each sample: the one whose published API limit is in
 * full use (BigCommerce's requests, Shopify's points), or whose requests waited for a free slot of
 * its in-flight limit for at least half of the time since the last sample (a store answering as
 * fast as it can). The destination is named first: it is the usual limit of a migration.
 */
export function paceOf(
  sides: { source: Connection; destination: Connection },
  now: () => number = () => performance.now(),
): () => 'source' | 'destination' | null {
  const last = new Map<string, { at: number; queuedMs: number }>();
  const bound = (side: 'source' | 'destination'): boolean => {
    const connection = sides[side];
    const usage = rateUsageOf(connection);
    const limited =
      usage !== undefined &&
      usage.availablePerSecond > 0 &&
      usage.usedPerSecond / usage.availablePerSecond >= fullUse;
    let stats;
    try {
      stats = connection.transportStats?.();
    } catch {
      stats = undefined;
    }
    const at = now();
    const before = last.get(side);
    const queuedMs = stats?.queuedMs ?? 0;
    last.set(side, { at, queuedMs });
    const waiting =
      before !== undefined &&
      at > before.at &&
      (queuedMs - before.queuedMs) / (at - before.at) >= waitingShare;
    return limited || waiting;
  };
  return () => {
    const destination = bound('destination');
    const source = bound('source');
    return destination ? 'destination' : source ? 'source' : null;
  };
}
