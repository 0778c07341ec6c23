import type { TimedFact, FactLog } from '../facts/fact-log.js';
import { buildFactLog } from '../facts/fact-log.js';
import type { EventFact } from '../facts/facts.js';
import { toIso } from '../time.js';
import { advance, resolve } from './escalation.js';
import type { RiskRule } from './risk-rules.js';
import { RISK_RULES, riskFactCounts } from './risk-rules.js';
import type { RiskSignal } from './risk-signal.js';
import { RISK_KINDS } from './risk-signal.js';
import { latestEpisode } from './risk-timer.js';
import { riskSignalId } from './signal-id.js';

function groupBySubject(
  rule: RiskRule,
  facts: readonly TimedFact[],
  companyId: string,
): Map<string, TimedFact[]> {
  const groups = new Map<string, TimedFact[]>();
  for (const fact of facts) {
    if (
      !rule.arms.includes(fact.type) &&
      !rule.rearms.includes(fact.type) &&
      !rule.clears.includes(fact.type)
    )
      continue;
    const subject = rule.subject === 'TENANT' ? companyId : fact.subject[rule.subject];
    if (subject === undefined) continue;
    const group = groups.get(subject);
    if (group) group.push(fact);
    else groups.set(subject, [fact]);
  }
  return groups;
}

function signalFor(
  rule: RiskRule,
  companyId: string,
  subject: string,
  facts: readonly TimedFact[],
  now: number,
): RiskSignal | null {
  const episode = latestEpisode(rule, facts, now);
  if (episode === null) return null;
  const subjectRef = { [rule.subject === 'TENANT' ? 'companyId' : rule.subject]: subject };
  const opened: RiskSignal = {
    id: riskSignalId(companyId, rule.kind, subjectRef),
    kind: rule.kind,
    severity: rule.baseSeverity,
    resolution: 'OPEN',
    escalatedToHuman: false,
    subjectRef,
    detectedAt: toIso(episode.detectedAt),
    resolvedAt: null,
  };
  return episode.resolvedAt === null
    ? advance(opened, new Date(now))
    : resolve(opened, new Date(episode.resolvedAt));
}

/**
 * Every drift-watch signal the facts of the last RISK_HISTORY_MS imply as of `now`, resolved
 * ones included, most recently detected first. Derived from facts and time only, so detection
 * is idempotent: running it again, or on a replay, yields the same signals with the same ids, and the store can upsert
 * them by id. Escalation is then `advance` on the same delays.
 */
export function detectSignalsInLog(companyId: string, log: FactLog, now: number): readonly RiskSignal[] {
  const signals: RiskSignal[] = [];
  // The risk history once, not once per rule.
  const current = log.facts.filter((fact) => riskFactCounts(fact.at, now));
  for (const kind of RISK_KINDS) {
    const rule = RISK_RULES[kind];
    for (const [subject, facts] of groupBySubject(rule, current, companyId)) {
      const signal = signalFor(rule, companyId, subject, facts, now);
      if (signal !== null) signals.push(signal);
    }
  }
  return signals.sort(byMostRecent);
}

/** Orders signals most recently detected first, ties by id. */
export function byMostRecent(a: RiskSignal, b: RiskSignal): number {
  if (a.detectedAt !== b.detectedAt) return a.detectedAt < b.detectedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** What risk detection reads. */
export interface DetectRiskSignalsInput {
  readonly companyId: string;
  readonly facts: readonly EventFact[];
  readonly now: Date;
}

/** {@link detectSignalsInLog} from raw facts (deduplicated and ordered first). */
export function detectRiskSignals(input: DetectRiskSignalsInput): readonly RiskSignal[] {
  return detectSignalsInLog(input.companyId, buildFactLog(input.facts), input.now.getTime());
}
