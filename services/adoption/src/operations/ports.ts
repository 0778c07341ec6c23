import type {
  EventFact,
  HealthBand,
  ManualCompletion,
  PathProfile,
  RiskSignal,
  SuccessPlan,
  SummarySlot,
  TenantSummary,
  TierEntry,
} from '../domain/index.js';

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
  readonly tier: TierSnapshot | null;
  readonly signals: readonly RiskSignal[];
  readonly driftRevision: number;
  readonly scheduledCheck: Date | null;
  /** Ids of completions (manual or detected) whose event is still to be published (the outbox). */
  readonly unpublished: readonly string[];
}

/** Every stored completion, manual and detected: what a recompute reads as DONE. */
export function storedCompletions(aggregate: TenantAggregate): readonly ManualCompletion[] {
  return [...aggregate.manualCompletions, ...aggregate.detectedCompletions];
}

/** What a recompute-on-write stores next to the change it made. */
export interface DerivedRecord {
  readonly lastBand: HealthBand;
  readonly signals: readonly RiskSignal[];
  readonly scheduledCheck: Date | null;
}

/** Success plans, one document per generation (store/plans-repository.ts). */
export interface PlansRepository {
  /** The tenant's plans, oldest first, statuses as the chain says; the last one is ACTIVE. */
  chain(tenantId: string): Promise<readonly SuccessPlan[]>;
  /** Stores the first plan; 'conflict' when the tenant already has one (then one is ACTIVE). */
  create(tenantId: string, plan: SuccessPlan): Promise<'created' | 'conflict'>;
  /**
   * Stores `successor` as the generation after `predecessorGeneration`; 'conflict' when that
   * generation exists, i.e. the predecessor was renewed already (a concurrent renewal won).
   */
  renew(
    tenantId: string,
    predecessorGeneration: number,
    renewed: SuccessPlan,
    successor: SuccessPlan,
  ): Promise<'renewed' | 'conflict'>;
}
