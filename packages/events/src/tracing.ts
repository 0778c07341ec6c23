import { trace, type Tracer } from '@opentelemetry/api';

/** The instrumentation scope of this package's spans. */
export const EVENTS_TRACER_NAME = '@tap/events';

// Looked up per use: the SDK is registered by main.ts after this module may have been imported.
export function tracer(): Tracer {
  return trace.getTracer(EVENTS_TRACER_NAME);
}

/** Span attribute names, after the OpenTelemetry messaging conventions where one exists. */
export const SPAN_ATTRIBUTES = {
  system: 'messaging.system',
  destination: 'messaging.destination.name',
  operation: 'messaging.operation.type',
  messageId: 'messaging.message.id',
  consumerGroup: 'messaging.consumer.group.name',
  deliveryCount: 'messaging.nats.delivery_count',
  streamSequence: 'messaging.nats.stream_sequence',
  duplicate: 'messaging.nats.duplicate',
  tenantId: 'tap.tenant_id',
  eventType: 'tap.event.type',
} as const;
