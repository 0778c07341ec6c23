import {
  foldFacts,
  summaryFacts,
  summaryHolds,
  toFact,
  type EventEnvelope,
  type EventFact,
  type SignalTransition,
  type TenantSummary,
} from '../domain/index.js';
import { recomputeOnWrite } from '../recompute-on-write.js';
import type { DerivedRecord, TenantAggregate } from '../store/aggregate-document.js';
import { UNSEEN_TIER } from '../tier.js';

/**
 * How many of the latest applied event ids the aggregate remembers, so a redelivery is
 * recognised even when the summary no longer keeps its fact. JetStream redelivers within the
 * ack wait and drops producer duplicates within its 2-minute window, so the latest thousand
 * cover what the per-message path sees; the batched path also skips by stream sequence.
 */
export const RECENT_IDS_KEPT = 1_000;

/** Compare-and-set rounds before the group is handed back for a retry. */
export const MAX_INGEST_ATTEMPTS = 20;

/** One event of a tenant's group, with its stream sequence when the consumer knows it. */
export interface IngestItem {
  readonly event: EventEnvelope;
  readonly seq: number | null;
}

/** The aggregate port this use case needs (store/aggregates-repository.ts implements it). */
export interface IngestAggregates {
  load(tenantId: string): Promise<TenantAggregate>;
  applyFacts(
    tenantId: string,
    change: { summary: TenantSummary; recentEventIds: readonly string[]; lastSeq: number },
    expectedVersion: number,
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
}

/** The append-only raw event log (store/raw-events-repository.ts); appending twice is harmless. */
export interface RawEventLog {
  append(tenantId: string, facts: readonly EventFact[], receivedAt: Date): Promise<void>;
}

export interface IngestDeps {
  readonly aggregates: IngestAggregates;
  readonly rawEvents: RawEventLog;
  readonly now: () => Date;
  readonly rescanMs: number;
  readonly schedule: (tenantId: string, at: Date | null) => Promise<void>;
  readonly onTransitions: (tenantId: string, transitions: readonly SignalTransition[]) => void;
}

/** What became of a tenant's group. */
export interface IngestOutcome {
  readonly applied: number;
  /** Redeliveries and duplicates: already in the aggregate, acknowledged without effect. */
  readonly duplicates: number;
  /** Kinds no rule reads or timestamps that are not one: acknowledged, never applied. */
  readonly ignored: number;
}

function alreadyApplied(aggregate: TenantAggregate, item: IngestItem, fact: EventFact): boolean {
  if (item.seq !== null && item.seq <= aggregate.lastSeq) return true;
  if (aggregate.recentEventIds.includes(fact.id) || summaryHolds(aggregate.summary, fact.id)) return true;
  // Adoption's own milestone.completed: the completion was stored by the API call that emitted it.
  return fact.type === 'milestone.completed' && aggregate.manualCompletions.some((c) => c.id === fact.id);
}

function fresh(aggregate: TenantAggregate, items: readonly { item: IngestItem; fact: EventFact }[]) {
  const seen = new Set<string>();
  return items.filter(({ item, fact }) => {
    if (seen.has(fact.id) || alreadyApplied(aggregate, item, fact)) return false;
    seen.add(fact.id);
    return true;
  });
}

/**
 * Applies one tenant's events, in stream order, with ONE conditional write: the group is
 * folded into the summary in memory, recomputed once, and stored at the version it was read
 * at together with the highest stream sequence, so a redelivery of any of them (seq <= lastSeq,
 * or a recent id) is acknowledged without a second effect. The raw events go to their own log
 * first; a crash between that and the aggregate write only means they are appended again.
 */
export async function ingestProductEvents(
  deps: IngestDeps,
  tenantId: string,
  items: readonly IngestItem[],
): Promise<IngestOutcome> {
  const decoded = items.flatMap((item) => {
    const fact = toFact(item.event);
    return fact === null ? [] : [{ item, fact }];
  });
  const ignored = items.length - decoded.length;
  if (decoded.length === 0) return { applied: 0, duplicates: 0, ignored };
  for (let attempt = 1; attempt <= MAX_INGEST_ATTEMPTS; attempt += 1) {
    const aggregate = await deps.aggregates.load(tenantId);
    const toApply = fresh(aggregate, decoded);
    const duplicates = decoded.length - toApply.length;
    if (toApply.length === 0) return { applied: 0, duplicates, ignored };
    const now = deps.now();
    const facts = toApply.map((d) => d.fact);
    await deps.rawEvents.append(tenantId, facts, now);
    const summary = foldFacts(aggregate.summary, facts, now);
    const seqs = toApply.map((d) => d.item.seq ?? 0);
    const change = {
      summary,
      recentEventIds: [...aggregate.recentEventIds, ...facts.map((f) => f.id)].slice(-RECENT_IDS_KEPT),
      lastSeq: Math.max(aggregate.lastSeq, ...seqs),
    };
    const { derived, transitions, reschedule } = recomputeOnWrite({
      aggregate,
      facts: summaryFacts(summary),
      manualCompletions: aggregate.manualCompletions,
      tier: aggregate.tier ?? UNSEEN_TIER,
      version: aggregate.version + 1,
      now,
      rescanMs: deps.rescanMs,
    });
    // Before the write: an early check finds nothing to do, a missing one would leave risks unwatched.
    if (reschedule) await deps.schedule(tenantId, reschedule);
    if (await deps.aggregates.applyFacts(tenantId, change, aggregate.version, derived, now)) {
      if (transitions.length > 0) deps.onTransitions(tenantId, transitions);
      return { applied: facts.length, duplicates, ignored };
    }
  }
  // Another writer kept winning: a redelivery (with the consumer's backoff) tries again later.
  throw new Error(`aggregate of tenant ${tenantId} kept changing; its events are left for redelivery`);
}
