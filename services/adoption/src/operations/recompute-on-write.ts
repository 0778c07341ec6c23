import {
  recompute,
  signalTransitions,
  type EventFact,
  type ItemCounts,
  type ManualCompletion,
  type OutboundEvent,
  type RecomputeResult,
  type SignalTransition,
  type TierView,
  type UpgradeContexts,
  earlierCheck,
  mergeSignals,
  nextDriftCheck,
  projectionOf,
  boundedEvents,
  INITIAL_LEVELS,
  writeEvents,
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
  /** Outbound events the write causes besides what the recompute shows (an audit entry). */
  readonly audit?: readonly OutboundEvent[];
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
  /** New outbound events the outbox had no room for (`derived.events` holds the kept ones). */
  readonly droppedEvents: number;
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
  const transitions = signalTransitions(input.aggregate.signals, signals);
  const { kept, dropped } = boundedEvents(input.aggregate.pendingEvents, [
    ...(input.audit ?? []),
    ...outboundEventsOf(input, result, transitions),
  ]);
  return {
    result,
    derived: {
      lastBand: result.state.healthBand,
      lastRung: result.state.currentMaturityRung,
      events: kept,
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
    transitions,
    droppedEvents: dropped,
  };
}

/**
 * The rung, band and ladder events of a write: against what the stored projection says (its
 * band is `lastBand`, its rung `lastRung`). A tenant no write has recomputed yet starts from the
 * empty recompute's rung and band; a document whose rung is not known (projected before
 * `lastRung`, projection not readable) gets no rung event from this write, only the baseline.
 */
function outboundEventsOf(
  input: WriteInput,
  result: RecomputeResult,
  transitions: readonly SignalTransition[],
): readonly OutboundEvent[] {
  const { aggregate } = input;
  const unprojected = aggregate.lastBand === null;
  return writeEvents({
    tenantId: aggregate.tenantId,
    previous: {
      band: aggregate.lastBand ?? INITIAL_LEVELS.band,
      rung: aggregate.lastRung ?? (unprojected ? INITIAL_LEVELS.rung : null),
    },
    next: {
      rung: result.state.currentMaturityRung,
      band: result.state.healthBand,
      healthScore: result.state.healthScore,
    },
    transitions,
    fence: `${aggregate.version}:${aggregate.driftRevision}`,
    at: input.now,
  });
}
