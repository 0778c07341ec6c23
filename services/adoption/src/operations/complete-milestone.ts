import {
  adoptionErrors,
  completeMilestone,
  type AdoptionState,
  type ManualCompletion,
  type OutboundEvent,
  type SignalTransition,
} from '../domain/index.js';
import { callerAuditEvent, type Caller } from './caller.js';
import type { EventOutbox } from './event-outbox.js';
import type { CompletionOutbox } from './completion-outbox.js';
import { recomputeOnWrite } from './recompute-on-write.js';
import { refreshProjection } from './refresh-projection.js';
import {
  storedCompletions,
  type AggregatesRepository,
  type DriftRepository,
  type TierCatalogue,
} from '../ports.js';
import { recomputeForWrite, tenantTier } from './tenant-tier.js';

/** Compare-and-set rounds a pinned completion makes before it answers VERSION_CONFLICT. */
export const MAX_RPC_WRITE_ATTEMPTS = 3;

/** What a completion asks: the milestone, the version the caller saw (optional), its evidence. */
export interface CompleteMilestoneRequest {
  readonly key: string;
  readonly expectedVersion?: string | number | null;
  readonly evidenceRef?: string | null;
}

/** The state after the completion and the events applied so far (the answer's two parts). */
export interface CompletedState {
  readonly state: AdoptionState;
  readonly appliedEvents: number;
}

/** What the use case needs; app.ts builds it (store/ implements the aggregates and the outbox). */
export interface CompleteMilestoneDeps {
  /** The store: a compare-and-set needs the version as stored now. */
  readonly aggregates: AggregatesRepository;
  /** The ledger write an unpinned completion stores its recompute (and projection) with. */
  readonly drift: Pick<DriftRepository, 'schedule' | 'record'>;
  /** The per-tier table entitlements' `tier.changed` events filled (upgrade offers). */
  readonly tiers: TierCatalogue;
  readonly logger: { warn(object: object, message: string): void };
  readonly now: () => Date;
  /** Publishes milestone.completed for a manual completion, with an outbox behind it. */
  readonly outbox: CompletionOutbox;
  readonly newId: () => string;
  /** The drift watch's rescan interval, for the due time a write stores. */
  readonly rescanMs: number;
  /** Sets when the drift watch should next look at a tenant. */
  readonly schedule: (tenantId: string, at: Date | null) => Promise<void>;
  /** Ladder moves a write caused, reported once the write has won. */
  readonly onTransitions: (tenantId: string, transitions: readonly SignalTransition[]) => void;
  /** The outbox of outbound events: the completion's audit entry, rung and band changes. */
  readonly events?: EventOutbox;
}

/**
 * A manual completion (the caller is a journey writer: the adapter checked): checked against a
 * fresh read; with `expectedVersion` written with a compare-and-set on the version (a moved
 * aggregate is the 409 the caller asked for), without it written unpinned, so events flowing for
 * the tenant never turn it into a 409. The outbox stands behind the milestone.completed event.
 */
export async function completeMilestoneFor(
  deps: CompleteMilestoneDeps,
  caller: Caller,
  request: CompleteMilestoneRequest,
): Promise<CompletedState> {
  const tenantId = caller.claims.tenantId;
  const expectedVersion = request.expectedVersion ?? undefined;
  for (let attempt = 1; attempt <= MAX_RPC_WRITE_ATTEMPTS; attempt += 1) {
    const aggregate = await deps.aggregates.load(tenantId);
    const tier = await tenantTier(deps.tiers, aggregate.tier);
    const { state } = recomputeForWrite(aggregate, tier, deps.now());
    const outcome = completeMilestone(
      state,
      request.key,
      {
        ...(expectedVersion === undefined ? {} : { expectedVersion: Number(expectedVersion) }),
        ...(request.evidenceRef ? { evidenceRef: request.evidenceRef } : {}),
        actorId: caller.claims.subject,
        capabilities: tier.tier.capabilities,
      },
      deps.now(),
      deps.newId,
    );
    if (!outcome.ok) throw outcome.error;
    if (outcome.value.outcome === 'ALREADY_DONE') return { state, appliedEvents: aggregate.appliedEvents };
    const { completion } = outcome.value;
    const audit = completionAudit(deps, caller, completion);
    if (expectedVersion === undefined) return completeUnpinned(deps, caller, completion, audit);
    const now = deps.now();
    const write = recomputeOnWrite({
      audit: [audit],
      aggregate,
      facts: aggregate.facts,
      manualCompletions: [...storedCompletions(aggregate), completion],
      tier: tier.tier,
      version: aggregate.version + 1,
      now,
      rescanMs: deps.rescanMs,
      upgradeContexts: tier.upgradeContexts,
      appliedEvents: aggregate.appliedEvents,
    });
    if (write.reschedule) await deps.schedule(tenantId, write.reschedule);
    await deps.outbox.expect(tenantId, completion, now);
    await deps.events?.expect(tenantId, write.derived.events, now);
    if (await deps.aggregates.recordCompletion(tenantId, completion, aggregate.version, write.derived, now)) {
      if (write.transitions.length > 0) deps.onTransitions(tenantId, write.transitions);
      if (write.droppedEvents > 0) deps.events?.dropped(tenantId, write.droppedEvents);
      // After the write: the aggregate is the truth and holds the event in its outbox, so a failed
      // publish is not a failure the client would retry against a done step; the relay sends it.
      await publishOrLeaveToRelay(deps, tenantId, completion);
      await deps.events?.publishOrLeave(tenantId, write.derived.events);
      return { state: write.result.state, appliedEvents: aggregate.appliedEvents };
    }
    await deps.events?.abandon(tenantId, write.derived.events);
    await deps.outbox
      .abandon(tenantId, completion)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'outbox reminder of a lost write kept'));
    // The caller pinned a version and the aggregate moved: that is the 409 it asked for.
    if (expectedVersion !== undefined) break;
  }
  throw adoptionErrors.create('VERSION_CONFLICT', {
    details: expectedVersion === undefined ? {} : { expectedVersion: Number(expectedVersion) },
  });
}

/**
 * A completion without `expectedVersion`: the caller asked for no concurrency check, so it is
 * written without the version guard (only "not completed yet"), and events flowing for the
 * tenant can never turn it into a 409. That write stores no recompute, so the projection is
 * refreshed right after it, fenced like a drift-watch record: if another writer got there first,
 * it read the completion and stored a projection with it. The tenant is also put in the drift
 * schedule first, so a refresh that never happens (a crash) is made by the watch.
 */
async function completeUnpinned(
  deps: CompleteMilestoneDeps,
  caller: Caller,
  completion: ManualCompletion,
  audit: OutboundEvent,
): Promise<CompletedState> {
  const tenantId = caller.claims.tenantId;
  const now = deps.now();
  await deps.outbox.expect(tenantId, completion, now);
  await deps.events?.expect(tenantId, [audit], now);
  await deps.drift.schedule(tenantId, now);
  // One audit entry, even in a full outbox: a manual completion is rare and the log must have it.
  const recorded = await deps.aggregates.recordCompletionOnce(tenantId, completion, now, [audit]);
  if (recorded === 'recorded') {
    await deps.events?.publishOrLeave(tenantId, [audit]);
    await publishOrLeaveToRelay(deps, tenantId, completion);
  } else {
    await deps.events?.abandon(tenantId, [audit]);
    await deps.outbox
      .abandon(tenantId, completion)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'outbox reminder of a lost write kept'));
  }
  const refresh = await refreshProjection(deps, tenantId, deps.now(), { alwaysReschedule: true });
  // Lost to a writer that may have read before the completion: the watch looks again at once.
  if (!refresh.recorded) await deps.drift.schedule(tenantId, now);
  if (refresh.transitions.length > 0) deps.onTransitions(tenantId, refresh.transitions);
  return { state: refresh.result.state, appliedEvents: refresh.appliedEvents };
}

/** The audit entry of a manual completion: who (from the verified claims), which milestone. */
function completionAudit(
  deps: Pick<CompleteMilestoneDeps, 'newId' | 'now'>,
  caller: Caller,
  completion: ManualCompletion,
): OutboundEvent {
  return callerAuditEvent(caller, {
    id: deps.newId(),
    action: 'milestone.completed_manually',
    target: { type: 'milestone', id: completion.key },
    at: new Date(completion.completedAt),
  });
}

/** Publishes a recorded completion now; one that fails stays in the outbox, and the relay sends it. */
async function publishOrLeaveToRelay(
  deps: Pick<CompleteMilestoneDeps, 'outbox' | 'logger'>,
  tenantId: string,
  completion: ManualCompletion,
): Promise<void> {
  await deps.outbox
    .publish(tenantId, completion)
    .catch((error: unknown) =>
      deps.logger.warn(
        { err: error, eventId: completion.id },
        'milestone.completed left in the outbox for the relay',
      ),
    );
}
