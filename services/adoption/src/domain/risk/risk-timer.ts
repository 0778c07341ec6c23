import type { TimedFact } from '../facts/fact-log.js';
import type { RiskRule } from './risk-rules.js';

/** One stretch of time during which a risk condition held. */
export interface Episode {
  readonly detectedAt: number;
  /** When the condition cleared, or null while it still holds. */
  readonly resolvedAt: number | null;
}

interface TimerState {
  armedAt: number | null;
  openSince: number | null;
  last: Episode | null;
}

function detectIfDue(state: TimerState, rule: RiskRule, at: number, inclusive: boolean): void {
  if (state.armedAt === null || state.openSince !== null) return;
  const dueAt = state.armedAt + rule.graceMs;
  if (dueAt < at || (inclusive && dueAt === at)) state.openSince = dueAt;
}

function close(state: TimerState, at: number): void {
  if (state.openSince !== null) state.last = { detectedAt: state.openSince, resolvedAt: at };
  state.openSince = null;
}

function apply(state: TimerState, rule: RiskRule, fact: TimedFact): void {
  if (rule.clears.includes(fact.type)) {
    close(state, fact.at);
    state.armedAt = null;
  } else if (state.armedAt !== null && rule.rearms.includes(fact.type)) {
    close(state, fact.at);
    state.armedAt = fact.at;
  } else if (rule.arms.includes(fact.type)) {
    if (state.armedAt === null) state.armedAt = fact.at;
    else if (rule.detectOnRepeat && state.openSince === null) state.openSince = fact.at;
  }
}

/**
 * The latest episode of a rule over one subject's facts (oldest first), as of `now`. A fact
 * landing exactly on the deadline still beats it: the condition must outlast the grace period.
 * An episode that recurs after clearing replaces the earlier one (same signal, reopened).
 */
export function latestEpisode(rule: RiskRule, facts: readonly TimedFact[], now: number): Episode | null {
  const state: TimerState = { armedAt: null, openSince: null, last: null };
  for (const fact of facts) {
    if (fact.at > now) break;
    detectIfDue(state, rule, fact.at, false);
    apply(state, rule, fact);
  }
  detectIfDue(state, rule, now, true);
  return state.openSince === null ? state.last : { detectedAt: state.openSince, resolvedAt: null };
}
