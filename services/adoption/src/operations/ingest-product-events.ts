import {
  addItemCounts,
  detectedCompletion,
  detectedCompletionId,
  foldFacts,
  isNewerTier,
  TIER_CHANGED_EVENT,
  tierChangeOf,
  type TierChange,
  newCompletions,
  isEventKind,
  summaryFacts,
  toFact,
  type EventEnvelope,
  type EventFact,
  type ManualCompletion,
  type SignalTransition,
  type TenantSummary,
} from '../domain/index.js';
import { countDistinctItems } from './count-distinct-items.js';
import type { EventOutbox } from './event-outbox.js';
import { recomputeOnWrite } from './recompute-on-write.js';
import { tenantTier } from './tenant-tier.js';
import {
  storedCompletions,
  type ItemMarkers,
  type DerivedRecord,
  type TenantAggregate,
  type TierCatalogue,
  type TierSnapshot,
} from '../ports.js';

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

/**
 * The aggregate port this use case needs (store/aggregates-repository.ts implements it). `load`
 * may answer from the writer's memory of its own last write (the app wires `loadForFacts`): the
 * write is fenced on the version and drift revision read, so a stale answer only costs a retry.
 */
export interface IngestAggregates {
  load(tenantId: string): Promise<TenantAggregate>;
  applyFacts(
    tenantId: string,
    change: {
      summary: TenantSummary;
      recentEventIds: readonly string[];
      lastSeq: number;
      /** `summaryFacts(summary)`: what the recompute read, kept so the store need not derive it again. */
      keptFacts: readonly EventFact[];
      /** The aggregate the summary was folded from: the store writes only what changed, fenced on it. */
      read: TenantAggregate;
      /** Milestones the events completed, stored once each with their ids in the outbox. */
      completions: readonly ManualCompletion[];
      /** The tier a `tier.changed` of the group set (absent: the tier stays). */
      tier?: TierSnapshot;
    },
    expectedVersion: number,
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
}

/** One tenant's applied events, for the raw log. */
export interface RawEventGroup {
  readonly tenantId: string;
  readonly facts: readonly EventFact[];
}

/** The append-only raw event log (store/raw-events-repository.ts); appending twice is harmless. */
export interface RawEventLog {
  append(tenantId: string, facts: readonly EventFact[], receivedAt: Date): Promise<void>;
  /** Several tenants' applied events in one append (the batched consumer's, once per batch). */
  appendGroups(groups: readonly RawEventGroup[], receivedAt: Date): Promise<void>;
  /** Which of these event ids the log holds. */
  existing(tenantId: string, ids: readonly string[]): Promise<ReadonlySet<string>>;
}

/**
 * Where the `milestone.completed` of an event-detected completion goes (outbox/completion-outbox.ts):
 * the same outbox, relay and envelope as a manual completion's.
 */
export interface DetectedCompletionOutbox {
  /** Before the write: the relay's reminder. */
  expect(tenantId: string, completion: ManualCompletion, now: Date): Promise<void>;
  /** After the write: publishes it now; a failure leaves it to the relay (never thrown). */
  publishOrLeave(tenantId: string, completion: ManualCompletion): Promise<void>;
}

export interface IngestDeps {
  readonly aggregates: IngestAggregates;
  /** The distinct-item markers (products, views, ...): counted here, never held in the aggregate. */
  readonly markers: ItemMarkers;
  /**
   * The outbox of detected completions. Without it (tests of the store alone) they are stored
   * DONE and marked unpublished, but nothing reminds the relay.
   */
  readonly completions?: DetectedCompletionOutbox;
  /** The outbox of outbound events (rung, band, ladder moves). Without it they are stored, not relayed. */
  readonly events?: EventOutbox;
  /**
   * The per-tier table: a `tier.changed` stores its tier's entry there before the tenant's write,
   * and a tenant no change reached yet recomputes with the default tier's entry. Without it (tests
   * of the store alone) such a tenant recomputes with UNSEEN_TIER.
   */
  readonly tiers?: TierCatalogue;
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
  /** Why each ignored item can never be applied, by stream sequence (for the dead letter). */
  readonly rejected: readonly { readonly seq: number; readonly reason: string }[];
  /**
   * Applied but not in the raw log yet: with `deferRawLog` the caller appends them (see
   * `logAppliedEvents`) before it acknowledges the group; otherwise always empty.
   */
  readonly unlogged: readonly EventFact[];
}

/** How a caller wants the raw log written. */
export interface IngestOptions {
  /**
   * Leave the raw-log append to the caller (the batched consumer appends every group of a batch
   * at once after their aggregate writes, and acknowledges none before that).
   */
  readonly deferRawLog?: boolean;
}

function rejection(event: EventEnvelope): string {
  return isEventKind(event.type)
    ? `occurredAt ${JSON.stringify(event.occurredAt).slice(0, 60)} is not a timestamp with a zone`
    : `no adoption rule reads kind ${JSON.stringify(event.type).slice(0, 60)}`;
}

// One pass over what the aggregate remembers, so a group's dedupe costs its size, not size × history.
function appliedIds(aggregate: TenantAggregate): (fact: EventFact) => boolean {
  const known = new Set([...aggregate.recentEventIds, ...aggregate.facts.map((f) => f.id)]);
  const completions = new Set(storedCompletions(aggregate).map((c) => c.id));
  // Adoption's own milestone.completed: the completion was stored by the write that emitted it.
  return (fact) => known.has(fact.id) || (fact.type === 'milestone.completed' && completions.has(fact.id));
}

/** The group's facts that are not to be applied (once each): they were applied before. */
function alreadyApplied(
  decoded: readonly { fact: EventFact }[],
  toApply: readonly { fact: EventFact }[],
): EventFact[] {
  if (decoded.length === toApply.length) return [];
  const applying = new Set(toApply.map(({ fact }) => fact.id));
  const seen = new Set<string>();
  return decoded.flatMap(({ fact }) => {
    if (applying.has(fact.id) || seen.has(fact.id)) return [];
    seen.add(fact.id);
    return [fact];
  });
}

/**
 * The items not applied yet. A known id is skipped outright. A sequence at or below `lastSeq`
 * with an id the aggregate no longer remembers is either an old redelivery or an event the
 * consumer handed back and got again after later ones (a stop, a take-over): the raw log, which
 * is written only after the aggregate write, tells them apart. Applying late is safe because
 * the summary fold does not depend on order.
 */
async function fresh(
  rawEvents: RawEventLog,
  aggregate: TenantAggregate,
  items: readonly { item: IngestItem; fact: EventFact }[],
): Promise<{ item: IngestItem; fact: EventFact }[]> {
  const seen = new Set<string>();
  const applied = appliedIds(aggregate);
  const unknown = items.filter(({ fact }) => {
    if (seen.has(fact.id) || applied(fact)) return false;
    seen.add(fact.id);
    return true;
  });
  const behind = unknown.filter(({ item }) => item.seq !== null && item.seq <= aggregate.lastSeq);
  if (behind.length === 0) return unknown;
  const logged = await rawEvents.existing(
    aggregate.tenantId,
    behind.map(({ fact }) => fact.id),
  );
  return unknown.filter(({ fact }) => !logged.has(fact.id));
}

/**
 * The newest of the group's tier changes, if it is newer than the tier the tenant holds (and was
 * not applied already: a change older than or as old as the held one is a no-op, so redeliveries
 * and replays never go back to an older tier).
 */
function newestTierChange(
  aggregate: TenantAggregate,
  changes: readonly { item: IngestItem; change: TierChange }[],
): TierChange | null {
  let newest: TierChange | null = null;
  for (const { change } of changes) {
    if (newest === null || isNewerTier(newest.changedAt, change)) newest = change;
  }
  if (newest === null) return null;
  return isNewerTier(aggregate.tier?.changedAt ?? null, newest) ? newest : null;
}

/**
 * Applies one tenant's events, in stream order, with ONE conditional write: the group is
 * folded into the summary in memory, recomputed once, and stored at the version it was read
 * at together with the highest stream sequence, so a redelivery of any of them (seq <= lastSeq,
 * a recent id, or an id in the raw log) is acknowledged without a second effect. The raw
 * events go to their own log after the write; a crash between the two leaves them out of the
 * log, and only a redelivery of one of them later than 1,000 newer events could then apply twice.
 */
export async function ingestProductEvents(
  deps: IngestDeps,
  tenantId: string,
  items: readonly IngestItem[],
  options: IngestOptions = {},
): Promise<IngestOutcome> {
  const tierItems = items.filter((item) => item.event.type === TIER_CHANGED_EVENT);
  const productItems = items.filter((item) => item.event.type !== TIER_CHANGED_EVENT);
  const tierChanges = tierItems.flatMap((item) => {
    const change = tierChangeOf(item.event);
    return change === null ? [] : [{ item, change }];
  });
  const decoded = productItems.flatMap((item) => {
    const fact = toFact(item.event);
    return fact === null ? [] : [{ item, fact }];
  });
  const ignored = items.length - decoded.length - tierChanges.length;
  const rejected = [
    ...productItems
      .filter((item) => item.seq !== null && toFact(item.event) === null)
      .map((item) => ({ seq: item.seq ?? 0, reason: rejection(item.event) })),
    ...tierItems
      .filter((item) => item.seq !== null && tierChangeOf(item.event) === null)
      .map((item) => ({ seq: item.seq ?? 0, reason: 'tier.changed without a valid tier in its data' })),
  ];
  if (decoded.length === 0 && tierChanges.length === 0)
    return { applied: 0, duplicates: 0, ignored, rejected, unlogged: [] };
  for (let attempt = 1; attempt <= MAX_INGEST_ATTEMPTS; attempt += 1) {
    const aggregate = await deps.aggregates.load(tenantId);
    const toApply = await fresh(deps.rawEvents, aggregate, decoded);
    const tierChange = newestTierChange(aggregate, tierChanges);
    const duplicates = decoded.length - toApply.length + tierChanges.length - (tierChange ? 1 : 0);
    // Applied before (a redelivery): logged again, harmlessly, so a group written whose raw-log
    // append failed is in the log once it comes back.
    const reapplied = alreadyApplied(decoded, toApply);
    if (toApply.length === 0 && tierChange === null) {
      if (!options.deferRawLog) await deps.rawEvents.append(tenantId, reapplied, deps.now());
      return { applied: 0, duplicates, ignored, rejected, unlogged: options.deferRawLog ? reapplied : [] };
    }
    const now = deps.now();
    const facts = toApply.map((d) => d.fact);
    const itemsAdded = await countDistinctItems(
      deps.markers,
      tenantId,
      toApply.map((d) => ({ fact: d.fact, seq: d.item.seq })),
    );
    const folded = foldFacts(aggregate.summary, facts, now);
    const summary = { ...folded, items: addItemCounts(folded.items ?? {}, itemsAdded) };
    const keptFacts = summaryFacts(summary);
    const seqs = [...toApply.map((d) => d.item.seq ?? 0), ...tierChanges.map((t) => t.item.seq ?? 0)];
    const stored = storedCompletions(aggregate);
    const tier: TierSnapshot | undefined = tierChange
      ? {
          tierCode: tierChange.entry.tierCode,
          pathProfile: tierChange.entry.pathProfile,
          capabilities: tierChange.entry.capabilities,
          changedAt: tierChange.changedAt,
        }
      : undefined;
    // The tier's entry first: a tenant stored with a tier always finds its tier's offers.
    if (tierChange) await deps.tiers?.put(tierChange.entry);
    // The projection the reads serve is stored by this write: milestones with the tier's offers.
    const tenant = await tenantTier(deps.tiers, tier ?? aggregate.tier);
    const { derived, transitions, reschedule, result, droppedEvents } = recomputeOnWrite({
      aggregate,
      facts: keptFacts,
      manualCompletions: stored,
      tier: tenant.tier,
      upgradeContexts: tenant.upgradeContexts,
      appliedEvents: summary.applied,
      items: summary.items ?? {},
      version: aggregate.version + 1,
      now,
      rescanMs: deps.rescanMs,
    });
    const completions = newCompletions(result.state, stored).map((c) =>
      detectedCompletion(c, detectedCompletionId(tenantId, c.key)),
    );
    const newIds = [...facts.map((f) => f.id), ...tierChanges.map((t) => t.item.event.id)];
    const change = {
      summary,
      recentEventIds: [...aggregate.recentEventIds, ...newIds].slice(-RECENT_IDS_KEPT),
      lastSeq: Math.max(aggregate.lastSeq, ...seqs),
      keptFacts,
      read: aggregate,
      completions,
      ...(tier ? { tier } : {}),
    };
    // Before the write: an early check finds nothing to do, a missing one would leave risks unwatched.
    if (reschedule) await deps.schedule(tenantId, reschedule);
    // Before the write too: a completion stored without its reminder would never be relayed.
    for (const completion of completions) await deps.completions?.expect(tenantId, completion, now);
    await deps.events?.expect(tenantId, derived.events, now);
    if (await deps.aggregates.applyFacts(tenantId, change, aggregate.version, derived, now)) {
      // After the write, so a logged event is an applied one (see `fresh`).
      const logged = [...reapplied, ...facts];
      if (!options.deferRawLog) await deps.rawEvents.append(tenantId, logged, now);
      if (transitions.length > 0) deps.onTransitions(tenantId, transitions);
      for (const completion of completions) await deps.completions?.publishOrLeave(tenantId, completion);
      if (droppedEvents > 0) deps.events?.dropped(tenantId, droppedEvents);
      await deps.events?.publishOrLeave(tenantId, derived.events);
      return {
        applied: facts.length + (tierChange ? 1 : 0),
        duplicates,
        ignored,
        rejected,
        unlogged: options.deferRawLog ? logged : [],
      };
    }
    await deps.events?.abandon(tenantId, derived.events);
  }
  // Another writer kept winning: a redelivery (with the consumer's backoff) tries again later.
  throw new Error(`aggregate of tenant ${tenantId} kept changing; its events are left for redelivery`);
}

/**
 * Appends the events a batch applied to the raw log: one append for every group, and only if
 * that fails, one per group, so a group whose own append fails is the only one held back.
 * Returns the tenants whose events are still not logged, with why: their groups must not be
 * acknowledged (a redelivery finds their ids among the aggregate's recent ones and applies
 * nothing again). Runs after the groups' aggregate writes, so a logged event is an applied one.
 */
export async function logAppliedEvents(
  rawEvents: RawEventLog,
  groups: readonly RawEventGroup[],
  receivedAt: Date,
): Promise<ReadonlyMap<string, unknown>> {
  const failed = new Map<string, unknown>();
  if (groups.length === 0) return failed;
  try {
    await rawEvents.appendGroups(groups, receivedAt);
    return failed;
  } catch {
    for (const group of groups) {
      await rawEvents.append(group.tenantId, group.facts, receivedAt).catch((error: unknown) => {
        failed.set(group.tenantId, error);
      });
    }
    return failed;
  }
}
