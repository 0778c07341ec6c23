import type { ProductEvent } from '@tap/contracts';
import { milestoneCompletedEvent, type ManualCompletion } from '../domain/index.js';
import type { DetectedCompletionOutbox } from './ingest-product-events.js';
import type { OutboxRepository, PublishEvent } from '../ports.js';

export type { PublishEvent } from '../ports.js';

/**
 * Publishes a completion's `milestone.completed` and then takes it out of the outbox. The
 * envelope is rebuilt from the stored completion by the one function the domain uses, so the
 * completing call and the relay send the same bytes under the same id: the stream's duplicate
 * window stores a repeat once, and consumers dedupe by event id.
 */
export async function publishCompletion(
  deps: { readonly publish: PublishEvent; readonly outbox: OutboxRepository },
  tenantId: string,
  completion: ManualCompletion,
): Promise<void> {
  await deps.publish(milestoneCompletedEvent(tenantId, completion) as ProductEvent);
  await deps.outbox.markPublished(tenantId, completion.id);
}

/** What the completing call does around its write (see docs/adoption-model.md, "The outbox of milestone.completed"). */
export interface CompletionOutbox {
  /** Before the write: the relay checks the completion's event once the grace period is over. */
  expect(tenantId: string, completion: ManualCompletion, now: Date): Promise<void>;
  /** After a write that lost its race: that completion, and so its event, will never exist. */
  abandon(tenantId: string, completion: ManualCompletion): Promise<void>;
  /** After the write: publishes the event and takes the completion out of the outbox. */
  publish(tenantId: string, completion: ManualCompletion): Promise<void>;
}

/** The outbox as the event consumer uses it for the milestones events complete. */
export function detectedCompletionOutbox(
  outbox: CompletionOutbox,
  logger: { warn(object: object, message: string): void },
): DetectedCompletionOutbox {
  return {
    expect: (tenantId, completion, now) => outbox.expect(tenantId, completion, now),
    publishOrLeave: (tenantId, completion) =>
      outbox
        .publish(tenantId, completion)
        .catch((error: unknown) =>
          logger.warn(
            { err: error, eventId: completion.id },
            'milestone.completed left in the outbox for the relay',
          ),
        ),
  };
}

export function completionOutbox(deps: {
  readonly publish: PublishEvent;
  readonly outbox: OutboxRepository;
  readonly graceMs: number;
}): CompletionOutbox {
  return {
    expect: (tenantId, completion, now) =>
      deps.outbox.remind(tenantId, completion.id, new Date(now.getTime() + deps.graceMs), now),
    abandon: (tenantId, completion) => deps.outbox.forget(tenantId, completion.id),
    publish: (tenantId, completion) => publishCompletion(deps, tenantId, completion),
  };
}
