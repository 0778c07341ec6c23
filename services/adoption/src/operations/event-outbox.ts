import type { OutboundEvent } from '../domain/index.js';
import type { OutboxRepository, PublishDomainEvent } from '../ports.js';

/**
 * What a writer does around a write that carries outbound events in its document's outbox (see
 * docs/notifications.md, "Producers: adoption"), the same steps as a completion's outbox:
 * reminders before the write, the publish after it, the reminders dropped when the write lost.
 */
export interface EventOutbox {
  /** Before the write: the relay checks each event once the grace period is over. */
  expect(tenantId: string, events: readonly OutboundEvent[], now: Date, holder?: string): Promise<void>;
  /** After a write that lost its race: those events will never exist. */
  abandon(tenantId: string, events: readonly OutboundEvent[]): Promise<void>;
  /**
   * After the write: publishes each event and takes it out of the outbox. A failure is logged and
   * left to the relay, never thrown: the write is done and is the truth.
   */
  publishOrLeave(tenantId: string, events: readonly OutboundEvent[], holder?: string): Promise<void>;
  /** A write found its document's outbox full and dropped that many new events (MAX_PENDING_EVENTS). */
  dropped(tenantId: string, count: number): void;
}

/** Publishes one outbound event and takes it out of its document's outbox (and its reminder). */
export async function publishOutbound(
  deps: { readonly publishDomain: PublishDomainEvent; readonly outbox: OutboxRepository },
  tenantId: string,
  event: OutboundEvent,
  holder?: string,
): Promise<void> {
  await deps.publishDomain(event);
  await deps.outbox.markEventPublished(tenantId, event, holder);
}

export function eventOutbox(deps: {
  readonly publishDomain: PublishDomainEvent;
  readonly outbox: OutboxRepository;
  readonly graceMs: number;
  readonly logger: { warn(object: object, message: string): void };
}): EventOutbox {
  return {
    async expect(tenantId, events, now, holder) {
      const dueAt = new Date(now.getTime() + deps.graceMs);
      for (const event of events) await deps.outbox.remind(tenantId, event.id, dueAt, now, holder);
    },
    async abandon(tenantId, events) {
      for (const event of events)
        await deps.outbox
          .forget(tenantId, event.id)
          .catch((error: unknown) =>
            deps.logger.warn({ err: error }, 'outbox reminder of a lost write kept'),
          );
    },
    async publishOrLeave(tenantId, events, holder) {
      for (const event of events) {
        try {
          await publishOutbound(deps, tenantId, event, holder);
        } catch (error) {
          // The bus is most likely down: the rest would fail too, and the relay sends them all.
          deps.logger.warn(
            { err: error, tenantId, eventId: event.id, type: event.type },
            'outbound event left in the outbox for the relay',
          );
          return;
        }
      }
    },
    dropped(tenantId, count) {
      deps.logger.warn({ tenantId, dropped: count }, 'outbound events dropped: the tenant’s outbox is full');
    },
  };
}
