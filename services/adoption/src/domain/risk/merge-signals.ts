import { RESOLUTIONS, type RiskSignal } from '../index.js';

const rank = (signal: RiskSignal): number => RESOLUTIONS.indexOf(signal.resolution);

/**
 * The ledger after a recompute: the freshly detected signals, except that an episode the
 * ledger already moved further up the ladder keeps its rung. Detection is a pure function of
 * facts and `now`, so it only disagrees with the ledger when `now` went backwards (replicas
 * with skewed clocks); the ladder then still never goes down, and no nudge is sent twice.
 */
export function mergeSignals(
  stored: readonly RiskSignal[],
  detected: readonly RiskSignal[],
): readonly RiskSignal[] {
  const ledger = new Map(stored.map((s) => [s.id, s]));
  return detected.map((fresh) => {
    const kept = ledger.get(fresh.id);
    const sameEpisode = kept !== undefined && kept.detectedAt === fresh.detectedAt;
    if (sameEpisode && fresh.resolution !== 'RESOLVED' && rank(kept) > rank(fresh)) return kept;
    return fresh;
  });
}
