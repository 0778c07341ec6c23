import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { JsMsg } from '@nats-io/jetstream';
import { kindOfSubject } from '../../subjects.js';
import { extractTraceContext } from '../../trace-headers.js';
import { SPAN_ATTRIBUTES, tracer } from '../../tracing.js';

/**
 * One CONSUMER span per message of a batch, each the child of its producer's trace context (the
 * message's headers), so a trace still runs from the request that published an event to the
 * consumer that applied it. The spans cover the batch's handling and end with it.
 */
export function startMessageSpans(
  msgs: readonly JsMsg[],
  durableName: string,
  subjectPrefix: string,
): { failed(msg: JsMsg, reason: string): void; endAll(): void } {
  const spans = new Map<JsMsg, Span>();
  for (const msg of msgs) {
    const kind = kindOfSubject(msg.subject, subjectPrefix) ?? 'unknown';
    spans.set(
      msg,
      tracer().startSpan(
        `events process ${kind}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            [SPAN_ATTRIBUTES.system]: 'nats',
            [SPAN_ATTRIBUTES.operation]: 'process',
            [SPAN_ATTRIBUTES.destination]: msg.subject,
            [SPAN_ATTRIBUTES.consumerGroup]: durableName,
            [SPAN_ATTRIBUTES.deliveryCount]: msg.info.deliveryCount,
            [SPAN_ATTRIBUTES.streamSequence]: msg.info.streamSequence,
          },
        },
        extractTraceContext(msg.headers),
      ),
    );
  }
  return {
    failed(msg, reason) {
      spans.get(msg)?.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    },
    endAll() {
      for (const span of spans.values()) span.end();
    },
  };
}
