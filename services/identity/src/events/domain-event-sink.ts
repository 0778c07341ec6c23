import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  createDomainEventPublisher,
  DEFAULT_DUPLICATE_WINDOW_MS,
  ensureEventStream,
  eventErrors,
} from '@tap/events';
import type { DomainEventSink } from '../operations/ports/domain-events.js';

/**
 * The domain stream over whatever NATS connection there is now. No connection (NATS not up
 * yet) rejects like a failed publish, so the events stay in the outboxes. The stream is
 * created on first use (idempotent): identity may publish before the outbound service started.
 */
export function natsDomainEventSink(options: {
  readonly connection: () => NatsConnection | undefined;
  readonly streamName: string;
  readonly subjectPrefix: string;
}): DomainEventSink {
  let ensured: { nc: NatsConnection; done: Promise<unknown> } | undefined;
  const ensureStream = (nc: NatsConnection) => {
    if (ensured?.nc !== nc) {
      const done = jetstreamManager(nc).then((jsm) =>
        ensureEventStream(jsm, {
          streamName: options.streamName,
          subjectPrefix: options.subjectPrefix,
          duplicateWindowMs: DEFAULT_DUPLICATE_WINDOW_MS,
        }),
      );
      ensured = { nc, done };
      // Tried again at the next publish when it failed (the bus was down).
      done.catch(() => (ensured = undefined));
    }
    return ensured.done;
  };
  return {
    async publish(event) {
      const nc = options.connection();
      if (!nc || nc.isClosed())
        throw eventErrors.create('EVENT_PUBLISH_FAILED', { details: { eventId: event.id } });
      await ensureStream(nc);
      return createDomainEventPublisher(jetstream(nc), { subjectPrefix: options.subjectPrefix }).publish(
        event,
      );
    },
    isRefused: (error) => eventErrors.is(error, 'EVENT_INVALID'),
  };
}
