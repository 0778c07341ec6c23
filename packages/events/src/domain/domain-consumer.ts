import { jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { domainEventSubject, parseDomainEvent, type DomainEvent } from '@tap/contracts';
import { redeliveryDelayMs } from '../consumer/backoff.js';
import { ensureDurableConsumer } from '../consumer/ensure-durable-consumer.js';
import type { RetryBackoff } from '../consumer/types.js';
import {
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_PULL_BATCH,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
} from '../defaults.js';
import { isPermanentEventError } from '../errors.js';

/** Options of {@link startDomainEventConsumer}. */
export interface DomainEventConsumerOptions {
  readonly streamName: string;
  readonly durableName: string;
  readonly subjectPrefix: string;
  /** Applies one event; resolve only after the write. Throw to have it redelivered. */
  readonly handler: (event: DomainEvent, delivery: { readonly deliveryCount: number }) => Promise<void>;
  /** A message that is not a valid domain event on its own subject (terminated, never retried). */
  readonly onInvalid?: (report: { subject: string; errors: readonly string[] }) => void;
  readonly onError?: (error: unknown, report: { subject: string; deliveryCount: number }) => void;
  /** Deliveries before a failing event is given up (terminated); defaults to 100: the handler's writes are idempotent. */
  readonly maxDeliver?: number;
  readonly ackWaitMs?: number;
  readonly retryBackoff?: RetryBackoff;
}

/** A started domain-event consumer. */
export interface DomainEventConsumer {
  stop(): Promise<void>;
  stats(): { processed: number; failed: number; invalid: number };
}

const DEFAULT_DOMAIN_MAX_DELIVER = 100;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A durable pull consumer of the domain stream, one message at a time, acked after the
 * handler's write. Invalid messages are terminated and reported (they never loop); a handler
 * failure is redelivered with a doubling delay.
 */
export async function startDomainEventConsumer(
  nc: NatsConnection,
  options: DomainEventConsumerOptions,
): Promise<DomainEventConsumer> {
  const jsm = await jetstreamManager(nc);
  const maxDeliver = options.maxDeliver ?? DEFAULT_DOMAIN_MAX_DELIVER;
  await ensureDurableConsumer(jsm, {
    streamName: options.streamName,
    durableName: options.durableName,
    filterSubjects: [`${options.subjectPrefix}.>`],
    maxDeliver,
    ackWaitMs: options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
  });
  const backoff = options.retryBackoff ?? {
    initialMs: DEFAULT_RETRY_INITIAL_MS,
    maxMs: DEFAULT_RETRY_MAX_MS,
  };
  const consumer = await jetstream(nc).consumers.get(options.streamName, options.durableName);
  const counts = { processed: 0, failed: 0, invalid: 0 };
  const messages: ConsumerMessages = await consumer.consume({ max_messages: DEFAULT_PULL_BATCH });

  const handle = async (msg: JsMsg): Promise<void> => {
    const decoded = decode(msg, options.subjectPrefix);
    if (!decoded.ok) {
      counts.invalid += 1;
      options.onInvalid?.({ subject: msg.subject, errors: decoded.errors });
      msg.term();
      return;
    }
    const deliveryCount = msg.info.deliveryCount;
    try {
      await options.handler(decoded.event, { deliveryCount });
      await msg.ackAck();
      counts.processed += 1;
    } catch (error) {
      counts.failed += 1;
      options.onError?.(error, { subject: msg.subject, deliveryCount });
      if (isPermanentEventError(error) || deliveryCount >= maxDeliver) msg.term();
      else msg.nak(redeliveryDelayMs(deliveryCount, backoff));
    }
  };
  const loop = (async () => {
    for await (const msg of messages) await handle(msg);
  })();

  return {
    async stop() {
      await messages.close();
      await loop;
    },
    stats: () => ({ ...counts }),
  };
}

function decode(
  msg: JsMsg,
  prefix: string,
): { ok: true; event: DomainEvent } | { ok: false; errors: readonly string[] } {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(msg.data));
  } catch (error) {
    return { ok: false, errors: [error instanceof Error ? error.message : String(error)] };
  }
  const parsed = parseDomainEvent(value);
  if (!parsed.ok) return parsed;
  const expected = domainEventSubject(parsed.event.tenantId, parsed.event.type, prefix);
  // An event for tenant A on tenant B's subject is refused rather than applied to A.
  if (msg.subject !== expected)
    return { ok: false, errors: [`published on ${msg.subject}, belongs on ${expected}`] };
  return parsed;
}
