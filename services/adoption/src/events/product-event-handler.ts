import type { ProductEvent } from '@tap/contracts';
import { PermanentEventError } from '@tap/events';
import { toFact, type EventFact, type SignalTransition } from '../domain/index.js';
import { recomputeOnWrite } from '../recompute-on-write.js';
import { MAX_FACTS_PER_TENANT, type TenantAggregate } from '../store/aggregate-document.js';
import type { AggregatesRepository } from '../store/aggregates-repository.js';
import { UNSEEN_TIER } from '../tier.js';

/** Compare-and-set rounds before the event is handed back for a later redelivery. */
export const MAX_WRITE_ATTEMPTS = 5;

export interface EventHandlerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface ProductEventHandlerDeps {
  readonly aggregates: AggregatesRepository;
  readonly logger: EventHandlerLogger;
  readonly now: () => Date;
  readonly rescanMs: number;
  /** Sets when the drift watch should next look at the tenant. */
  readonly schedule: (tenantId: string, at: Date | null) => Promise<void>;
  /** Ladder moves caused by the event, reported once its write has won. */
  readonly onTransitions: (tenantId: string, transitions: readonly SignalTransition[]) => void;
}

/** True when the aggregate already holds this event (as a fact, or as the manual completion it announces). */
function alreadyApplied(aggregate: TenantAggregate, fact: EventFact): boolean {
  if (aggregate.facts.some((f) => f.id === fact.id)) return true;
  // Adoption's own milestone.completed: the completion was stored by the API call that emitted it.
  return fact.type === 'milestone.completed' && aggregate.manualCompletions.some((c) => c.id === fact.id);
}

/**
 * The milestone detector's write: the event becomes a fact of its tenant's aggregate at most
 * once, together with the recompute it causes (health band for hysteresis, drift-watch ledger),
 * in one conditional single-document update. Kinds adoption has no rule for are recorded in the
 * log and acknowledged, never retried.
 */
export function productEventHandler(deps: ProductEventHandlerDeps) {
  return async (event: ProductEvent): Promise<void> => {
    const fact = toFact(event);
    if (!fact) {
      deps.logger.info({ eventId: event.id, type: event.type }, 'event ignored: no adoption rule uses it');
      return;
    }
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      const aggregate = await deps.aggregates.load(event.tenantId);
      if (alreadyApplied(aggregate, fact)) {
        deps.logger.info({ eventId: event.id }, 'event already applied');
        return;
      }
      if (aggregate.facts.length >= MAX_FACTS_PER_TENANT) {
        throw new PermanentEventError(
          `tenant ${event.tenantId} holds ${MAX_FACTS_PER_TENANT} facts; event not applied`,
        );
      }
      const now = deps.now();
      const { derived, transitions, reschedule } = recomputeOnWrite({
        aggregate,
        facts: [...aggregate.facts, fact],
        manualCompletions: aggregate.manualCompletions,
        tier: aggregate.tier ?? UNSEEN_TIER,
        version: aggregate.version + 1,
        now,
        rescanMs: deps.rescanMs,
      });
      // Before the write: an early check finds nothing to do, a missing one would leave risks unwatched.
      if (reschedule) await deps.schedule(event.tenantId, reschedule);
      if (await deps.aggregates.appendFact(event.tenantId, fact, aggregate.version, derived, now)) {
        if (transitions.length > 0) deps.onTransitions(event.tenantId, transitions);
        return;
      }
    }
    // Another writer kept winning: a redelivery (with the consumer's backoff) tries again later.
    throw new Error(
      `aggregate of tenant ${event.tenantId} kept changing; event ${event.id} left for redelivery`,
    );
  };
}
