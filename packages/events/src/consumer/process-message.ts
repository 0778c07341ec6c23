import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { JsMsg } from '@nats-io/jetstream';
import type { ProductEvent } from '@tap/contracts';
import { kindOfSubject } from '../subjects.js';
import { extractTraceContext } from '../trace-headers.js';
import { SPAN_ATTRIBUTES, tracer } from '../tracing.js';
import { redeliveryDelayMs } from './backoff.js';
import { publishDeadLetter, type DeadLetterTarget } from './dead-letter.js';
import { decodeMessage } from './decode-message.js';
import type {
  ConsumerErrorReport,
  DeadLetterReason,
  DeliveryContext,
  DurableConsumerOptions,
  RetryBackoff,
} from './types.js';

/** Mutable counters behind DurableConsumer.stats(). */
export interface Counters {
  delivered: number;
  applied: number;
  invalid: number;
  failed: number;
  redelivered: number;
  deadLettered: number;
}

export interface ProcessorSettings {
  readonly durableName: string;
  readonly subjectPrefix: string;
  readonly maxDeliver: number;
  readonly backoff: RetryBackoff;
  readonly handler: DurableConsumerOptions['handler'];
  readonly isPermanent: (error: unknown) => boolean;
  readonly onInvalid: DurableConsumerOptions['onInvalid'];
  readonly onError: DurableConsumerOptions['onError'];
  readonly deadLetter: DeadLetterTarget | undefined;
  readonly counters: Counters;
}

/**
 * Handles one message end to end inside a CONSUMER span that continues the producer's trace.
 * Settles every message exactly one way (ack, nak with delay, or term) and never rejects: one bad
 * message must not stop the loop.
 */
export function createMessageProcessor(settings: ProcessorSettings): (msg: JsMsg) => Promise<void> {
  const { counters } = settings;
  return async (msg) => {
    counters.delivered += 1;
    if (msg.redelivered) counters.redelivered += 1;
    const kind = kindOfSubject(msg.subject, settings.subjectPrefix) ?? 'unknown';
    const attributes = {
      [SPAN_ATTRIBUTES.system]: 'nats',
      [SPAN_ATTRIBUTES.operation]: 'process',
      [SPAN_ATTRIBUTES.destination]: msg.subject,
      [SPAN_ATTRIBUTES.consumerGroup]: settings.durableName,
      [SPAN_ATTRIBUTES.deliveryCount]: msg.info.deliveryCount,
      [SPAN_ATTRIBUTES.streamSequence]: msg.info.streamSequence,
    };
    await tracer().startActiveSpan(
      `events process ${kind}`,
      { kind: SpanKind.CONSUMER, attributes },
      extractTraceContext(msg.headers),
      async (span) => {
        try {
          await handleMessage(settings, msg, span);
        } catch (error) {
          // Only a bug in this file gets here; the message stays unacked and comes back after ack wait.
          markFailed(span, error);
          report(settings, error, { stage: 'handler', willRetry: true, ...where(msg) });
        } finally {
          span.end();
        }
      },
    );
  };
}

async function handleMessage(settings: ProcessorSettings, msg: JsMsg, span: Span): Promise<void> {
  const decoded = decodeMessage(msg.subject, msg.data, settings.subjectPrefix);
  if (!decoded.ok) {
    settings.counters.invalid += 1;
    span.setStatus({ code: SpanStatusCode.ERROR, message: decoded.reason });
    const { streamSeq, deliveryCount } = delivery(msg);
    const invalid = {
      reason: decoded.reason,
      errors: decoded.errors,
      subject: msg.subject,
      streamSeq,
      deliveryCount,
    };
    safely(settings, () => settings.onInvalid(invalid), msg);
    await giveUp(settings, msg, decoded.reason, decoded.errors.join('; '), 'ack');
    return;
  }
  const { event } = decoded;
  span.setAttributes({
    [SPAN_ATTRIBUTES.messageId]: event.id,
    [SPAN_ATTRIBUTES.tenantId]: event.tenantId,
    [SPAN_ATTRIBUTES.eventType]: event.type,
  });
  try {
    await settings.handler(event, delivery(msg));
  } catch (error) {
    settings.counters.failed += 1;
    markFailed(span, error);
    await handlerFailed(settings, msg, event, error);
    return;
  }
  settings.counters.applied += 1;
  await confirmAck(settings, msg, event);
}

async function handlerFailed(
  settings: ProcessorSettings,
  msg: JsMsg,
  event: ProductEvent,
  error: unknown,
): Promise<void> {
  const context = { ...where(msg), eventId: event.id, eventType: event.type };
  const detail = error instanceof Error ? error.message : String(error);
  if (settings.isPermanent(error)) {
    report(settings, error, { stage: 'handler', willRetry: false, ...context });
    await giveUp(settings, msg, 'PERMANENT_FAILURE', detail, 'ack');
    return;
  }
  if (msg.info.deliveryCount >= settings.maxDeliver) {
    report(settings, error, { stage: 'handler', willRetry: false, ...context });
    await giveUp(settings, msg, 'RETRIES_EXHAUSTED', detail, 'term');
    return;
  }
  report(settings, error, { stage: 'handler', willRetry: true, ...context });
  settle(settings, msg, () => msg.nak(redeliveryDelayMs(msg.info.deliveryCount, settings.backoff)));
}

/**
 * Records a message that will not be handled and takes it off the consumer. When the dead
 * letter cannot be stored, the message is offered again later (up to maxDeliver) instead of
 * being dropped with only a log line as its record.
 */
async function giveUp(
  settings: ProcessorSettings,
  msg: JsMsg,
  reason: DeadLetterReason,
  detail: string,
  finish: 'ack' | 'term',
): Promise<void> {
  const target = settings.deadLetter;
  if (target) {
    try {
      await publishDeadLetter(target, msg, reason, detail);
      settings.counters.deadLettered += 1;
    } catch (error) {
      const retry = msg.info.deliveryCount < settings.maxDeliver;
      report(settings, error, { stage: 'dead-letter', willRetry: retry, ...where(msg) });
      if (retry) {
        settle(settings, msg, () => msg.nak(redeliveryDelayMs(msg.info.deliveryCount, settings.backoff)));
        return;
      }
    }
  }
  if (finish === 'term') settle(settings, msg, () => msg.term());
  else await confirmAck(settings, msg);
}

// ackAck waits for the server to confirm: a lost ack would otherwise surface as a silent redelivery.
async function confirmAck(settings: ProcessorSettings, msg: JsMsg, event?: ProductEvent): Promise<void> {
  try {
    await msg.ackAck();
  } catch (error) {
    report(settings, error, {
      stage: 'ack',
      willRetry: true,
      ...where(msg),
      ...(event ? { eventId: event.id, eventType: event.type } : {}),
    });
  }
}

function settle(settings: ProcessorSettings, msg: JsMsg, action: () => void): void {
  try {
    action();
  } catch (error) {
    report(settings, error, { stage: 'ack', willRetry: true, ...where(msg) });
  }
}

function delivery(msg: JsMsg): DeliveryContext {
  return {
    redelivered: msg.redelivered,
    deliveryCount: msg.info.deliveryCount,
    streamSeq: msg.info.streamSequence,
  };
}

function where(msg: JsMsg): Pick<ConsumerErrorReport, 'subject' | 'streamSeq' | 'deliveryCount'> {
  return { subject: msg.subject, streamSeq: msg.info.streamSequence, deliveryCount: msg.info.deliveryCount };
}

function markFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}

function report(settings: ProcessorSettings, error: unknown, context: ConsumerErrorReport): void {
  try {
    settings.onError(error, context);
  } catch {
    // A failing logger must not turn into an unsettled message.
  }
}

function safely(settings: ProcessorSettings, fn: () => void, msg: JsMsg): void {
  try {
    fn();
  } catch (error) {
    report(settings, error, { stage: 'handler', willRetry: false, ...where(msg) });
  }
}
