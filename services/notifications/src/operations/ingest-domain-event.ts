import { isOutboundEventType, type DomainEvent } from '@tap/contracts';
import { MAX_WEBHOOK_BODY_BYTES } from '../domain/index.js';
import { pendingDelivery } from './pending-delivery.js';
import type { DeliveriesRepository, EndpointsRepository, FeedRepository } from './ports.js';

export interface IngestDomainEventDeps {
  readonly feed: FeedRepository;
  readonly endpoints: EndpointsRepository;
  readonly deliveries: DeliveriesRepository;
  readonly now: () => Date;
  readonly newId: () => string;
}

/** What became of one event. */
export interface IngestReport {
  readonly kept: boolean;
  readonly queued: number;
  readonly skipped?: 'NOT_OUTBOUND' | 'TOO_LARGE';
}

/**
 * Keeps an outbound event for the feed and queues one delivery per subscribed, enabled endpoint.
 * Idempotent: a redelivered event is kept once and each (endpoint, event) is queued once, so a
 * crash between the two writes is repaired by the redelivery, and the consumer acks only after.
 */
export async function ingestDomainEvent(
  deps: IngestDomainEventDeps,
  event: DomainEvent,
): Promise<IngestReport> {
  if (!isOutboundEventType(event.type)) return { kept: false, queued: 0, skipped: 'NOT_OUTBOUND' };
  const body = JSON.stringify(event);
  if (Buffer.byteLength(body) > MAX_WEBHOOK_BODY_BYTES)
    return { kept: false, queued: 0, skipped: 'TOO_LARGE' };
  const at = deps.now();
  const kept = await deps.feed.append({
    eventId: event.id,
    tenantId: event.tenantId,
    type: event.type,
    receivedAt: at,
    body,
  });
  const endpoints = await deps.endpoints.subscribedTo(event.tenantId, event.type);
  for (const endpoint of endpoints)
    await deps.deliveries.enqueue(
      pendingDelivery(
        {
          id: deps.newId(),
          tenantId: event.tenantId,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          body,
        },
        at,
      ),
    );
  return { kept, queued: endpoints.length };
}
