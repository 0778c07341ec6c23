import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import { eventSubject, parseProductEvent, type ProductEvent } from '@tap/contracts';
import { DEFAULT_PUBLISH_TIMEOUT_MS } from './defaults.js';
import { eventErrors } from './errors.js';
import { injectTraceContext } from './trace-headers.js';
import { SPAN_ATTRIBUTES, tracer } from './tracing.js';

/** Options of {@link createEventPublisher}. */
export interface EventPublisherOptions {
  /** The contract's prefix is `events` (DEFAULT_EVENT_SUBJECT_PREFIX); tests use their own. */
  readonly subjectPrefix: string;
  /** How long to wait for the stream's acknowledgement; defaults to DEFAULT_PUBLISH_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/** Where the stream stored an event, and whether it was a retry it had already stored. */
export interface PublishResult {
  readonly seq: number;
  readonly duplicate: boolean;
}

/** Publishes product events on `<prefix>.<tenantId>.<kind>`. */
export interface EventPublisher {
  /**
   * Validates `event` against the contract and stores it in the event stream. Rejects with
   * `EVENT_INVALID` (nothing published) or `EVENT_PUBLISH_FAILED` (unknown whether it was
   * stored: retry with the same event, its id makes the retry harmless).
   */
  publish(event: ProductEvent): Promise<PublishResult>;
}

/** A publisher over a JetStream client; the event id is the message id, so retries deduplicate. */
export function createEventPublisher(js: JetStreamClient, options: EventPublisherOptions): EventPublisher {
  const timeout = options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  return {
    async publish(event) {
      // The type says ProductEvent, but callers build events from requests and stored rows:
      // the contract is checked here so consumers never see what they would have to reject.
      const parsed = parseProductEvent(event);
      if (!parsed.ok) throw eventErrors.create('EVENT_INVALID', { details: { errors: parsed.errors } });
      const subject = eventSubject(event.tenantId, event.type, options.subjectPrefix);
      const attributes = {
        [SPAN_ATTRIBUTES.system]: 'nats',
        [SPAN_ATTRIBUTES.operation]: 'send',
        [SPAN_ATTRIBUTES.destination]: subject,
        [SPAN_ATTRIBUTES.messageId]: event.id,
        [SPAN_ATTRIBUTES.eventType]: event.type,
        [SPAN_ATTRIBUTES.tenantId]: event.tenantId,
      };
      return tracer().startActiveSpan(
        `events publish ${event.type}`,
        { kind: SpanKind.PRODUCER, attributes },
        async (span) => {
          try {
            const hdrs = headers();
            injectTraceContext(hdrs);
            const ack = await js.publish(subject, JSON.stringify(event), {
              msgID: event.id,
              headers: hdrs,
              timeout,
            });
            span.setAttribute(SPAN_ATTRIBUTES.streamSequence, ack.seq);
            span.setAttribute(SPAN_ATTRIBUTES.duplicate, ack.duplicate);
            return { seq: ack.seq, duplicate: ack.duplicate };
          } catch (error) {
            span.recordException(error instanceof Error ? error : String(error));
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw eventErrors.create('EVENT_PUBLISH_FAILED', {
              details: { subject, eventId: event.id },
              cause: error,
            });
          } finally {
            span.end();
          }
        },
      );
    },
  };
}
