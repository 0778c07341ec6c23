import type { JetStreamClient } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import { domainEventSubject, parseDomainEvent, type DomainEvent } from '@tap/contracts';
import { DEFAULT_PUBLISH_TIMEOUT_MS } from '../defaults.js';
import { eventErrors } from '../errors.js';
import type { PublishResult } from '../publisher.js';
import { injectTraceContext } from '../trace-headers.js';

/** Options of {@link createDomainEventPublisher}. */
export interface DomainEventPublisherOptions {
  /** The contract's prefix is `domain` (DEFAULT_DOMAIN_SUBJECT_PREFIX); tests use their own. */
  readonly subjectPrefix: string;
  readonly timeoutMs?: number;
}

/** Publishes domain (outbound) events on `<prefix>.<tenantId>.<type>`. */
export interface DomainEventPublisher {
  /**
   * Validates `event` against the domain-event contract and stores it in the domain stream.
   * Rejects with `EVENT_INVALID` (nothing published) or `EVENT_PUBLISH_FAILED` (unknown whether
   * it was stored: an outbox relay retries with the same event, whose id makes the retry harmless).
   */
  publish(event: DomainEvent): Promise<PublishResult>;
}

/**
 * The publisher an outbox relay calls: the event id is the message id, so a relay that dies
 * between its publish and marking the row sent publishes the same id again, and the stream's
 * duplicate window stores it once.
 */
export function createDomainEventPublisher(
  js: JetStreamClient,
  options: DomainEventPublisherOptions,
): DomainEventPublisher {
  const timeout = options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  return {
    async publish(event) {
      const parsed = parseDomainEvent(event);
      if (!parsed.ok) throw eventErrors.create('EVENT_INVALID', { details: { errors: parsed.errors } });
      const subject = domainEventSubject(event.tenantId, event.type, options.subjectPrefix);
      try {
        const hdrs = headers();
        injectTraceContext(hdrs);
        const ack = await js.publish(subject, JSON.stringify(event), {
          msgID: event.id,
          headers: hdrs,
          timeout,
        });
        return { seq: ack.seq, duplicate: ack.duplicate };
      } catch (error) {
        throw eventErrors.create('EVENT_PUBLISH_FAILED', {
          details: { subject, eventId: event.id },
          cause: error,
        });
      }
    },
  };
}
