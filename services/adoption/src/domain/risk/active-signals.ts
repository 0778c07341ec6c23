import { byMostRecent } from './detect-risk-signals.js';
import type { Resolution, RiskSignal } from './risk-signal.js';

/** Signals returned when the caller gives no limit. */
export const DEFAULT_SIGNAL_LIMIT = 50;
/** The most signals one call returns, whatever limit is asked for. */
export const MAX_SIGNAL_LIMIT = 200;

/**
 * The active (not RESOLVED) signals, most recent first, capped: no limit → 50; a limit is
 * floored and clamped to 1..200 (the edge should already have rejected nonsense with a 400).
 */
export function activeSignals(signals: readonly RiskSignal[], limit?: number): readonly RiskSignal[] {
  const cap =
    limit === undefined || !Number.isFinite(limit)
      ? DEFAULT_SIGNAL_LIMIT
      : Math.min(MAX_SIGNAL_LIMIT, Math.max(1, Math.floor(limit)));
  return signals
    .filter((s) => s.resolution !== 'RESOLVED')
    .sort(byMostRecent)
    .slice(0, cap);
}

/** A signal's move on the ladder, for adapters that send the nudge, prompt or escalation. */
export interface SignalTransition {
  readonly signalId: string;
  readonly kind: RiskSignal['kind'];
  readonly subjectRef: RiskSignal['subjectRef'];
  /** Null for a signal seen for the first time. */
  readonly from: Resolution | null;
  readonly to: Resolution;
}

/**
 * What changed between the stored signals and freshly detected ones (a reopened signal shows
 * as RESOLVED → OPEN or higher). Ordered by signal id so replays emit the same sequence.
 */
export function signalTransitions(
  previous: readonly RiskSignal[],
  next: readonly RiskSignal[],
): readonly SignalTransition[] {
  const before = new Map(previous.map((s) => [s.id, s.resolution]));
  return next
    .filter((s) => before.get(s.id) !== s.resolution)
    .map((s) => ({
      signalId: s.id,
      kind: s.kind,
      subjectRef: s.subjectRef,
      from: before.get(s.id) ?? null,
      to: s.resolution,
    }))
    .sort((a, b) => (a.signalId < b.signalId ? -1 : a.signalId > b.signalId ? 1 : 0));
}
