import {
  recompute,
  signalTransitions,
  type EventFact,
  type ItemCounts,
  type ManualCompletion,
  type RecomputeResult,
  type SignalTransition,
  type TierView,
  type UpgradeContexts,
  earlierCheck,
  mergeSignals,
  nextDriftCheck,
  projectionOf,
} from '../domain/index.js';
import type { DerivedRecord, TenantAggregate } from '../ports.js';

/** What a write changes the aggregate to, before it is written. */
export interface WriteInput {
  /** The aggregate as read (its stored signals and band are the baseline). */
  readonly aggregate: TenantAggregate;
  readonly facts: readonly EventFact[];
  readonly manualCompletions: readonly ManualCompletion[];
  readonly tier: TierView;
  /** The version the write produces. */
  readonly version: number;
  readonly now: Date;
  readonly rescanMs: number;
  /** The tier's upgrade offers (the per-tier table): the projection's milestones carry them. */
  readonly upgradeContexts: UpgradeContexts;
  /** Events applied over the tenant's life once the write is stored. */
  readonly appliedEvents: number;
  /** The distinct-item counters once the write is stored (absent: the aggregate's, unchanged). */
  readonly items?: ItemCounts;
  /** The drift watch takes the next check whatever is scheduled: it has just consumed it. */
  readonly alwaysReschedule?: boolean;
}

/** The recompute, what to store with the write, and which signals moved. */
export interface WriteRecompute {
  readonly result: RecomputeResult;
  readonly derived: DerivedRecord;
  /** When the drift watch should look at the tenant next (null: nothing can drift yet). */
  readonly nextCheck: Date | null;
  /** What a write puts in the drift schedule: `nextCheck` when it is earlier than what is there. */
  readonly reschedule: Date | undefined;
  /** Ladder moves against the stored ledger; reported only once the write has won. */
  readonly transitions: readonly SignalTransition[];
}

/**
 * Recomputes the aggregate as a write will leave it, so the write can carry the band (the
 * hysteresis memory), the drift-watch ledger and the projection the reads serve in the same
 * single-document update.
 */
export function recomputeOnWrite(input: WriteInput): WriteRecompute {
  const result = recompute({
    companyId: input.aggregate.tenantId,
    pathProfile: input.tier.pathProfile,
    facts: input.facts,
    manualCompletions: input.manualCompletions,
    capabilities: input.tier.capabilities,
    upgradeContexts: input.upgradeContexts,
    previousBand: input.aggregate.lastBand,
    version: input.version,
    now: input.now,
  });
  const signals = mergeSignals(input.aggregate.signals, result.signals);
  const hasFacts = input.facts.length > 0 || input.manualCompletions.length > 0;
  const nextCheck = nextDriftCheck(signals, hasFacts, input.now, input.rescanMs);
  const reschedule = input.alwaysReschedule
    ? (nextCheck ?? undefined)
    : earlierCheck(input.aggregate.scheduledCheck, nextCheck);
  return {
    result,
    derived: {
      lastBand: result.state.healthBand,
      signals,
      scheduledCheck: reschedule ?? input.aggregate.scheduledCheck,
      projection: projectionOf({
        result,
        ledger: signals,
        facts: input.facts,
        items: input.items ?? input.aggregate.summary.items ?? {},
        capabilities: input.tier.capabilities,
        appliedEvents: input.appliedEvents,
      }),
    },
    nextCheck,
    reschedule,
    transitions: signalTransitions(input.aggregate.signals, signals),
  };
}
