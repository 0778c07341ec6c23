import { eventSubject, type ProductEvent } from '@tap/contracts';
import { isPermanentEventError, type EventHandler } from '@tap/events';
import { entitlementErrors } from '../domain/index.js';
import type { CountOutcome } from '../operations/count-event.js';
import type { RejectedEventsRepository } from '../store/rejected-events-repository.js';

export interface UsageEventLogger {
  debug(object: object, message: string): void;
}

/**
 * The usage counters' event handler: counts the event (at most once, see countEvent), and
 * records an event the domain refuses as INVALID_EVENT before rethrowing it. The consumer treats
 * that error as permanent (isPermanent), so the event is acked, never retried forever; a failure
 * to record it is an ordinary error, so the event comes back and is recorded then.
 */
export function usageEventHandler(deps: {
  count: (event: ProductEvent) => Promise<CountOutcome>;
  rejected: RejectedEventsRepository;
  logger: UsageEventLogger;
  now: () => Date;
  subjectPrefix: string;
}): EventHandler {
  return async (event, delivery) => {
    let outcome: CountOutcome;
    try {
      outcome = await deps.count(event);
    } catch (error) {
      if (entitlementErrors.is(error, 'INVALID_EVENT')) {
        const field = error.details?.['field'];
        await deps.rejected.record(
          {
            id: event.id,
            reason: error.code,
            detail: typeof field === 'string' ? `${error.message} (${field})` : error.message,
            subject: eventSubject(event.tenantId, event.type, deps.subjectPrefix),
            eventType: event.type,
            tenantId: event.tenantId,
          },
          deps.now(),
        );
      }
      throw error;
    }
    deps.logger.debug(
      { eventId: event.id, type: event.type, outcome, redelivered: delivery.redelivered },
      'usage event handled',
    );
  };
}

/** Which handler errors are permanent: the domain's INVALID_EVENT, besides the package's own. */
export function isPermanentUsageError(error: unknown): boolean {
  return isPermanentEventError(error) || entitlementErrors.is(error, 'INVALID_EVENT');
}
