import type { RecomputeResult, SignalTransition } from '../domain/index.js';
import {
  storedCompletions,
  type AggregatesRepository,
  type DriftRepository,
  type TierCatalogue,
} from '../ports.js';
import type { EventOutbox } from './event-outbox.js';
import { recomputeOnWrite } from './recompute-on-write.js';
import { tenantTier } from './tenant-tier.js';

/** What a refresh needs: the aggregate as stored, the ledger write and the tier table. */
export interface RefreshDeps {
  readonly aggregates: Pick<AggregatesRepository, 'load'>;
  readonly drift: Pick<DriftRepository, 'schedule' | 'record'>;
  readonly tiers?: TierCatalogue;
  readonly rescanMs: number;
  /** The outbox of the outbound events a refresh causes (none: stored, not relayed). */
  readonly events?: EventOutbox;
}

/** What a refresh did, and the recompute it stored (or would have: see `recorded`). */
export interface Refresh {
  /** False: another writer changed the tenant after the read; its write stored a newer projection. */
  readonly recorded: boolean;
  readonly result: RecomputeResult;
  /** Ladder moves it recorded (none when it lost). */
  readonly transitions: readonly SignalTransition[];
  readonly appliedEvents: number;
}

/**
 * Recomputes a tenant as of `now` from what is stored and records the ledger and the projection
 * if neither the facts (`version`) nor the ledger (`driftRevision`) moved since the read: what
 * time alone changes (health decay, risk windows, ladder steps) and what a write that stores no
 * recompute left behind. `alwaysReschedule` (the drift watch, which consumed its due time) puts
 * the next check in the schedule whatever is there; otherwise only an earlier one.
 */
export async function refreshProjection(
  deps: RefreshDeps,
  tenantId: string,
  now: Date,
  options: { alwaysReschedule: boolean },
): Promise<Refresh & { readonly nextCheck: Date | null }> {
  const aggregate = await deps.aggregates.load(tenantId);
  const tier = await tenantTier(deps.tiers, aggregate.tier);
  const write = recomputeOnWrite({
    alwaysReschedule: options.alwaysReschedule,
    aggregate,
    facts: aggregate.facts,
    manualCompletions: storedCompletions(aggregate),
    tier: tier.tier,
    upgradeContexts: tier.upgradeContexts,
    appliedEvents: aggregate.appliedEvents,
    version: aggregate.version,
    now,
    rescanMs: deps.rescanMs,
  });
  // Scheduled before the ledger write: a check that comes too early finds nothing to do, one
  // that never comes would leave a risk unwatched.
  if (options.alwaysReschedule) await deps.drift.schedule(tenantId, write.nextCheck);
  else if (write.reschedule) await deps.drift.schedule(tenantId, write.reschedule);
  await deps.events?.expect(tenantId, write.derived.events, now);
  const recorded = await deps.drift.record(tenantId, aggregate, write.derived, now);
  if (recorded) {
    if (write.droppedEvents > 0) deps.events?.dropped(tenantId, write.droppedEvents);
    await deps.events?.publishOrLeave(tenantId, write.derived.events);
  } else await deps.events?.abandon(tenantId, write.derived.events);
  return {
    recorded,
    result: write.result,
    transitions: recorded ? write.transitions : [],
    appliedEvents: aggregate.appliedEvents,
    nextCheck: write.nextCheck,
  };
}
