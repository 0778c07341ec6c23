import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
// @opentelemetry/sdk-trace-base is not resolvable from this package; @opentelemetry/sdk-trace
// (its successor, hoisted at the root) names BasicTracerProvider TracerProvider and takes
// SimpleSpanProcessor's exporter in an options object.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { createEventPublisher } from '../src/index.js';
import { consumerStarter, recorder, uniqueDurable } from './support/consumers.js';
import { productCreated } from './support/events.js';
import { openTestBed, type EventsTestBed } from './support/nats.js';
import { waitFor } from './support/wait-for.js';

describe('trace context across the event stream', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let bed: EventsTestBed;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    bed = await openTestBed('trace_context');
  });

  afterAll(async () => {
    await bed?.close();
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it("runs the handler in a CONSUMER span that is a child of the publisher's PRODUCER span", async () => {
    const tenantId = randomUUID();
    const seen = recorder();
    let handlerSpanId: string | undefined;
    const consumers = consumerStarter(bed);
    await consumers.start(tenantId, seen, {
      durableName: uniqueDurable(),
      handler: (event, delivery) => {
        handlerSpanId = trace.getActiveSpan()?.spanContext().spanId;
        seen.deliveries.push({ event, delivery });
        return Promise.resolve();
      },
    });
    const publisher = createEventPublisher(bed.js, { subjectPrefix: bed.subjectPrefix });
    const event = productCreated(tenantId);
    const request = trace.getTracer('test').startSpan('POST /api/v1/products');
    await context.with(trace.setSpan(context.active(), request), () => publisher.publish(event));
    request.end();

    const isConsumerSpan = (): boolean =>
      exporter.getFinishedSpans().some((s) => s.kind === SpanKind.CONSUMER);
    await waitFor('the consumer span to end', isConsumerSpan);
    await consumers.stopAll();

    const spans = exporter.getFinishedSpans();
    const producer = spans.find((s) => s.kind === SpanKind.PRODUCER);
    const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER);
    expect(producer?.name).toBe('events publish product.created');
    expect(consumer?.name).toBe('events process product.created');
    expect(producer?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(consumer?.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(consumer?.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
    expect(handlerSpanId).toBe(consumer?.spanContext().spanId);
    expect(consumer?.attributes).toMatchObject({
      'messaging.message.id': event.id,
      'tap.tenant_id': tenantId,
    });
  });
});
