import type { ProductEvent } from '@tap/contracts';
import type {
  EventFact,
  HealthBand,
  ManualCompletion,
  MaturityRung,
  OutboundEvent,
  PathProfile,
  RiskSignal,
  StoredMarker,
  SuccessPlan,
  SummarySlot,
  TenantProjection,
  TenantSummary,
  TierEntry,
} from './domain/index.js';

/**
 * The shapes and repository ports adoption's use cases need; store/ implements them
 * (aggregates-repository.ts, plans-repository.ts) and app.ts wires them.
 */

/**
 * The tenant's tier as the last `tier.changed` applied to it said (entitlements is its owner and
 * announces every change on the bus); every read, write and drift pass recomputes with it.
 */
export interface TierSnapshot {
  readonly tierCode: string;
  readonly pathProfile: PathProfile;
  readonly capabilities: readonly string[];
  /** When entitlements set it (absent: stored before tiers came by event; any change is newer). */
  readonly changedAt?: string;
}

/**
 * The tier catalogue as entitlements announced it, one entry per tier (the newest catalogue
 * version's): what a tier grants and what to offer for what it lacks. Reads take the upgrade
 * offers from here, never from entitlements (store/tier-catalogue-repository.ts).
 */
export interface TierCatalogue {
  /** The entry of `tierCode`; undefined until a `tier.changed` for that tier reached adoption. */
  entry(tierCode: string): Promise<TierEntry | undefined>;
  /** Stores `entry` unless one of a newer catalogue version is stored. */
  put(entry: TierEntry): Promise<void>;
}

/**
 * Where the summary's slots are stored (docs/adoption-model.md §17): parts in their own
 * collection, oldest first, then the small layer inline in the tenant's document. Only the store
 * reads it; a write hands back the aggregate it folded from, so the store knows what it changed.
 */
export interface SummaryStorage {
  readonly parts: readonly { readonly id: string; readonly facts: number }[];
  readonly inline: readonly SummarySlot[];
}

/** What a read of the aggregate gives the rest of the service. */
export interface TenantAggregate {
  readonly tenantId: string;
  readonly summary: TenantSummary;
  readonly summaryStorage: SummaryStorage;
  /** The facts the rules read: those the summary keeps, not the whole history. */
  readonly facts: readonly EventFact[];
  /** Events applied over the tenant's life. */
  readonly appliedEvents: number;
  readonly recentEventIds: readonly string[];
  readonly lastSeq: number;
  readonly manualCompletions: readonly ManualCompletion[];
  /**
   * Event-detected milestones stored DONE, with their instant and the id of their
   * `milestone.completed` (one per milestone, written by the event write that completed it).
   */
  readonly detectedCompletions: readonly ManualCompletion[];
  readonly version: number;
  readonly lastBand: HealthBand | null;
  /** Rung of the stored projection (null: none stored yet); the baseline of `adoption.rung_changed`. */
  readonly lastRung: MaturityRung | null;
  readonly tier: TierSnapshot | null;
  readonly signals: readonly RiskSignal[];
  readonly driftRevision: number;
  readonly scheduledCheck: Date | null;
  /** Ids of completions (manual or detected) whose event is still to be published (the outbox). */
  readonly unpublished: readonly string[];
  /** Outbound events in the document's outbox (`pendingEvents`) when it was read. */
  readonly pendingEvents: number;
}

/** Every stored completion, manual and detected: what a recompute reads as DONE. */
export function storedCompletions(aggregate: TenantAggregate): readonly ManualCompletion[] {
  return [...aggregate.manualCompletions, ...aggregate.detectedCompletions];
}

/**
 * What a recompute-on-write stores next to the change it made, in the same conditional update:
 * the hysteresis memory, the drift ledger and schedule, and the projection every read serves.
 */
export interface DerivedRecord {
  readonly lastBand: HealthBand;
  /** The projection's rung, stored beside it as the baseline of the next write's rung event. */
  readonly lastRung: MaturityRung;
  /**
   * Outbound events the write caused (rung, band, ladder moves), pushed into the document's
   * outbox (`pendingEvents`) by the same conditional update; the relay publishes them.
   */
  readonly events: readonly OutboundEvent[];
  readonly signals: readonly RiskSignal[];
  readonly scheduledCheck: Date | null;
  readonly projection: TenantProjection;
}

/** A tenant's read model as stored (store/projection-reader.ts reads it). */
export interface StoredProjection {
  readonly tenantId: string;
  /** The document's version (0: never written); what the read cache's notices compare with. */
  readonly version: number;
  /**
   * As the last recomputing write stored it; null when no write has projected the tenant yet
   * (never written, or a document from before projections until the drift watch reaches it).
   */
  readonly projection: TenantProjection | null;
  /** The stored tier, for the projection of a tenant that has none yet. */
  readonly tier: TierSnapshot | null;
}

/**
 * The read side of the aggregates: one document read, the projection and nothing of the
 * summary, so a read costs the same at 1,000 products as at 500,000.
 */
export interface ProjectionReader {
  read(tenantId: string): Promise<StoredProjection>;
}

/** Success plans, one document per generation (store/plans-repository.ts). */
export interface PlansRepository {
  /** The tenant's plans, oldest first, statuses as the chain says; the last one is ACTIVE. */
  chain(tenantId: string): Promise<readonly SuccessPlan[]>;
  /**
   * Stores the first plan; 'conflict' when the tenant already has one (then one is ACTIVE).
   * `events` go into the new plan document's outbox in the same insert (see planHolder).
   */
  create(
    tenantId: string,
    plan: SuccessPlan,
    events?: readonly OutboundEvent[],
  ): Promise<'created' | 'conflict'>;
  /**
   * Stores `successor` as the generation after `predecessorGeneration`; 'conflict' when that
   * generation exists, i.e. the predecessor was renewed already (a concurrent renewal won).
   * `events` go into the successor's document, in its insert.
   */
  renew(
    tenantId: string,
    predecessorGeneration: number,
    renewed: SuccessPlan,
    successor: SuccessPlan,
    events?: readonly OutboundEvent[],
  ): Promise<'renewed' | 'conflict'>;
}

/** The outbox `holder` of the events a plan generation's insert carried (DuePublication.holder). */
export function planHolder(generation: number): string {
  return `plan:${generation}`;
}

/** The generation a plan holder names (undefined: not a plan holder). */
export function planGeneration(holder: string | undefined): number | undefined {
  const match = /^plan:(\d+)$/.exec(holder ?? '');
  return match ? Number(match[1]) : undefined;
}

/** What applying a tenant's events changes: the folded summary and the duplicate guards. */
export interface FactsChange {
  readonly summary: TenantSummary;
  readonly recentEventIds: readonly string[];
  readonly lastSeq: number;
  /** The facts the folded summary keeps (`summaryFacts(summary)`, computed once by the caller). */
  readonly keptFacts: readonly EventFact[];
  /**
   * The aggregate the summary was folded from: only the slots that changed since are written, and
   * the write is fenced on its `driftRevision` too (a drift-watch record since then changed the
   * ledger this write would overwrite).
   */
  readonly read: TenantAggregate;
  /**
   * Event-detected completions this change stores for the first time (with their ids in the
   * outbox, in the same update); the version guard makes each one stored once.
   */
  readonly completions: readonly ManualCompletion[];
  /** The tier a `tier.changed` set (absent: the stored tier stays). */
  readonly tier?: TierSnapshot;
}

export interface AggregatesRepository {
  /** The tenant's aggregate; an empty one (version 0) when nothing was written yet. */
  load(tenantId: string): Promise<TenantAggregate>;
  /**
   * The aggregate as this repository's last `applyFacts` left it, when it remembers it
   * (last-written-aggregates.ts), else `load`. For the event consumer, whose next write is fenced.
   */
  loadForFacts(tenantId: string): Promise<TenantAggregate>;
  /**
   * Stores the summary with any number of events folded in, and its recompute, if the aggregate
   * is still at `expectedVersion` and the drift ledger at `change.read.driftRevision`; false when
   * another write got there first (read again, fold again, retry). One single-document update,
   * whatever the number of events.
   */
  applyFacts(
    tenantId: string,
    change: FactsChange,
    expectedVersion: number,
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
  /**
   * Appends a manual completion and its recompute if the aggregate is still at `expectedVersion`,
   * and in the same update puts the completion in the outbox: its event is still to be published.
   */
  recordCompletion(
    tenantId: string,
    completion: ManualCompletion,
    expectedVersion: number,
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
  /**
   * Stores a manual completion whatever the version, unless the milestone already has one:
   * for a caller that sent no `expectedVersion`, so the event consumer's writes can never make
   * it fail. It leaves the recompute's derived fields to the next write or drift pass (the
   * consumer's next write recomputes with the completion in). Puts it in the outbox in the same update.
   */
  recordCompletionOnce(
    tenantId: string,
    completion: ManualCompletion,
    now: Date,
    /** Outbound events (the completion's audit entry) pushed into the outbox by the same update. */
    events?: readonly OutboundEvent[],
  ): Promise<'recorded' | 'already-done'>;
}

/** A tenant whose check is due, and since when. */
export interface DueTenant {
  readonly tenantId: string;
  readonly dueAt: Date;
}

export interface DriftRepository {
  /** Sets when the tenant is next due (null: never, until a write schedules it). */
  schedule(tenantId: string, at: Date | null): Promise<void>;
  /** Tenants whose check is due, most overdue first. */
  due(now: Date, limit: number): Promise<readonly DueTenant[]>;
  /**
   * Takes a due tenant for this replica: an insert keyed by tenant, due time and lease period,
   * so of several replicas asking at once exactly one gets a claim. A replica that dies holding
   * it delays the tenant by one lease at most (the next period has a new key).
   */
  claim(due: DueTenant, now: Date, leaseMs: number): Promise<string | null>;
  /** Gives a claim back once the tenant's check is recorded (or failed). */
  release(claim: string): Promise<void>;
  /**
   * Stores a drift-watch recompute if neither the facts (`version`) nor the ledger
   * (`driftRevision`) moved since they were read; false when another writer got there first.
   */
  record(
    tenantId: string,
    read: { version: number; driftRevision: number },
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
}

/** A completion whose event the relay should check, and since when. */
export interface DuePublication {
  readonly tenantId: string;
  readonly completionId: string;
  readonly dueAt: Date;
  /** When the completing call wrote this reminder (just before the completion itself). */
  readonly createdAt: Date;
  /**
   * The plan document whose outbox holds the event (an audit entry of a plan's create or renewal);
   * absent: the tenant's aggregate document.
   */
  readonly holder?: string;
}

/**
 * Where a completion stands: its event still to be published, published already, or not in
 * the aggregate at all (the completing write lost its race, or has not landed yet).
 */
export type OutboxEntry =
  | { readonly state: 'unpublished'; readonly completion: ManualCompletion }
  | { readonly state: 'pending-event'; readonly event: OutboundEvent }
  | { readonly state: 'published' }
  | { readonly state: 'unwritten' };

export interface OutboxRepository {
  /**
   * Reminds the relay to check the completion's event at `dueAt`. Written before the completion:
   * a reminder without a completion is dropped by the relay, a completion without a reminder
   * would never be relayed.
   */
  remind(tenantId: string, completionId: string, dueAt: Date, now: Date, holder?: string): Promise<void>;
  /** Reminders that are due, oldest first. */
  due(now: Date, limit: number): Promise<readonly DuePublication[]>;
  /**
   * Takes a due reminder for this replica: an insert keyed by completion, due time and lease
   * period, so of several replicas asking at once exactly one gets it.
   */
  claim(due: DuePublication, now: Date, leaseMs: number): Promise<string | null>;
  /** Gives a claim back once the reminder is dealt with (or failed). */
  release(claim: string): Promise<void>;
  /**
   * Where the completion or outbound event stands in its tenant's aggregate (or in the plan
   * document `holder`). An outbound event that is not there is 'unwritten': published events
   * leave no trace, so the relay drops such a reminder after UNWRITTEN_REMINDER_TTL_MS.
   */
  entry(tenantId: string, completionId: string, holder?: string): Promise<OutboxEntry>;
  /** Takes the outbound event out of its document's outbox (it is in the stream) and drops its reminder. */
  markEventPublished(tenantId: string, event: OutboundEvent, holder?: string): Promise<void>;
  /** Takes the completion out of the outbox (its event is in the stream) and drops its reminder. */
  markPublished(tenantId: string, completionId: string): Promise<void>;
  /** Drops a reminder (its completion is published, or was never written). */
  forget(tenantId: string, completionId: string): Promise<void>;
  /** Moves a reminder later. */
  postpone(due: DuePublication, until: Date): Promise<void>;
}

/**
 * Markers of distinct items, one per (tenant, space, item) on a unique key
 * (store/item-markers-repository.ts): what lets adoption count 500,000 products without holding one.
 */
export interface ItemMarkers {
  /** Inserts the markers that are not there yet; returns the keys this call inserted. */
  insertFirst(
    tenantId: string,
    markers: readonly { readonly key: string; readonly eventId: string }[],
  ): Promise<ReadonlySet<string>>;
  /** The stored markers among `keys` (one indexed lookup each; for the few a group needs). */
  find(tenantId: string, keys: readonly string[]): Promise<ReadonlyMap<string, StoredMarker>>;
  /**
   * Records, before a group's markers go in, that markers of events up to `throughSeq` may be
   * stored; returns the previous mark. A duplicate of an event at or below it may be this very
   * event's marker from an attempt that crashed before the tenant's write, so it is read back.
   */
  fence(tenantId: string, throughSeq: number): Promise<number>;
  /** How many markers the tenant has in a space (tests and migrations: it scans on FerretDB). */
  countFor(tenantId: string, space: string): Promise<number>;
}

/** Publishes an event on the bus; rejects when the stream did not confirm it. */
export type PublishEvent = (event: ProductEvent) => Promise<unknown>;

/**
 * Publishes an outbound event on the domain stream (DOMAIN_EVENTS) with its id as the message id;
 * rejects when the stream did not confirm it.
 */
export type PublishDomainEvent = (event: OutboundEvent) => Promise<unknown>;

/** The raw event log's side of the pass (store/raw-events-repository.ts). */
export interface PrunableEventLog {
  /** Deletes the events received before `cutoff`; how many went. */
  pruneBefore(cutoff: Date): Promise<number>;
}

/** The summary parts' side of the pass (store/orphan-parts.ts). */
export interface OrphanParts {
  /**
   * Looks at up to `limit` parts inserted before `insertedBefore` and deletes those their
   * tenant's aggregate does not name; what it looked at and deleted.
   */
  sweep(insertedBefore: Date, limit: number): Promise<{ looked: number; deleted: number }>;
}
