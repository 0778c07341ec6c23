import { isEventKind, MILESTONE_COMPLETED_EVENT } from '../catalogue/event-kinds.js';
import type { EventKind } from '../catalogue/event-kinds.js';
import { parseInstant } from '../time.js';
import type { EventFact, ManualCompletion } from './facts.js';

/** A fact with its instant parsed, as the rules read it. */
export interface TimedFact extends EventFact {
  readonly type: EventKind;
  /** `occurredAt` in milliseconds since the epoch. */
  readonly at: number;
}

/** The tenant's facts in canonical order, indexed by kind. */
export interface FactLog {
  /** Sorted by (occurredAt, id); one fact per id; only known kinds with valid timestamps. */
  readonly facts: readonly TimedFact[];
  readonly byType: ReadonlyMap<EventKind, readonly TimedFact[]>;
}

function compareFacts(a: TimedFact, b: TimedFact): number {
  if (a.at !== b.at) return a.at - b.at;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

/**
 * Puts facts in one canonical order whatever order they arrived in, and keeps one fact per id
 * (the bus delivers at least once). Unknown kinds and bad timestamps are dropped here, so every
 * rule downstream sees the same clean log and a replay gives the same answer.
 */
export function buildFactLog(facts: readonly EventFact[]): FactLog {
  const timed: TimedFact[] = [];
  for (const fact of facts) {
    const at = parseInstant(fact.occurredAt);
    if (at !== null && isEventKind(fact.type)) timed.push({ ...fact, type: fact.type, at });
  }
  timed.sort(compareFacts);
  const seen = new Set<string>();
  const unique: TimedFact[] = [];
  for (const fact of timed) {
    if (seen.has(fact.id)) continue;
    seen.add(fact.id);
    unique.push(fact);
  }
  const byType = new Map<EventKind, TimedFact[]>();
  for (const fact of unique) {
    const list = byType.get(fact.type);
    if (list) list.push(fact);
    else byType.set(fact.type, [fact]);
  }
  return { facts: unique, byType };
}

/** The facts of one kind, oldest first. */
export function factsOfType(log: FactLog, type: EventKind): readonly TimedFact[] {
  return log.byType.get(type) ?? [];
}

/** A manual completion with its instant parsed. */
export interface TimedCompletion extends ManualCompletion {
  readonly at: number;
}

/**
 * One completion per milestone key, the earliest. Completions come from the stored list and
 * from `milestone.completed` facts (adoption's own event, keyed by `subject.milestoneKey`, if it
 * is replayed from the bus), so either source alone rebuilds the same state.
 */
export function mergeCompletions(
  stored: readonly ManualCompletion[],
  log: FactLog,
): ReadonlyMap<string, TimedCompletion> {
  const candidates: TimedCompletion[] = [];
  for (const completion of stored) {
    const at = parseInstant(completion.completedAt);
    if (at !== null) candidates.push({ ...completion, at });
  }
  for (const fact of factsOfType(log, MILESTONE_COMPLETED_EVENT)) {
    const key = fact.subject['milestoneKey'];
    if (key === undefined) continue;
    const evidenceRef = fact.data['evidenceRef'] ?? null;
    const actorId = fact.data['actorId'] ?? null;
    candidates.push({ id: fact.id, key, completedAt: fact.occurredAt, evidenceRef, actorId, at: fact.at });
  }
  candidates.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byKey = new Map<string, TimedCompletion>();
  for (const completion of candidates) if (!byKey.has(completion.key)) byKey.set(completion.key, completion);
  return byKey;
}
