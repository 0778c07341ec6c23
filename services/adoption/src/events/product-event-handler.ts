import type { ProductEvent } from '@tap/contracts';
import { toFact } from '../domain/index.js';
import type { AggregatesRepository } from '../store/aggregates-repository.js';

export interface EventHandlerLogger {
  info(object: object, message: string): void;
}

/**
 * The milestone detector's write: the event becomes a fact in its tenant's aggregate, at most
 * once (the aggregate refuses a fact id it holds). Kinds adoption has no rule for are recorded
 * in the log and acknowledged, never retried.
 */
export function productEventHandler(deps: { aggregates: AggregatesRepository; logger: EventHandlerLogger; now: () => Date }) {
  return async (event: ProductEvent): Promise<void> => {
    const fact = toFact(event);
    if (!fact) {
      deps.logger.info({ eventId: event.id, type: event.type }, 'event ignored: no adoption rule uses it');
      return;
    }
    const outcome = await deps.aggregates.applyFact(event.tenantId, fact, deps.now());
    if (outcome === 'duplicate') deps.logger.info({ eventId: event.id }, 'event already applied');
  };
}
