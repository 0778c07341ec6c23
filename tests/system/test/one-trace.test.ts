import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { installTestTracing, type TestTracing } from '@tap/telemetry';
import { startSystem, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

describe('one trace across the system', () => {
  let tracing: TestTracing;
  let system: System;

  beforeAll(async () => {
    tracing = installTestTracing();
    system = await startSystem('trace');
  });

  afterAll(async () => {
    await system?.stop();
    await tracing?.uninstall();
  });

  it('covers gateway → gRPC → adoption → NATS → consumer for one request', async () => {
    const tenantId = await system.createTenant('Traced Goods');
    const bearer = `Bearer ${await system.token(tenantId)}`;
    const state = async () =>
      (await system.http('GET', '/api/v1/tenant/adoption/state', { headers: { authorization: bearer } }))
        .body as {
        data: { milestones: Array<{ key: string; status: string }> };
      };
    // The manual kickoff milestone needs a completed company profile first.
    await system.publish({
      id: randomUUID(),
      type: 'company.profile_completed',
      tenantId,
      occurredAt: new Date().toISOString(),
      subject: {},
      data: {},
    });
    await waitFor(async () =>
      (await state()).data.milestones.find((m) => m.key === 'company_profile_completed')?.status === 'DONE'
        ? true
        : undefined,
    );
    tracing.reset();

    const response = await system.http(
      'POST',
      '/api/v1/tenant/adoption/milestones/kickoff_call_held/complete',
      {
        headers: { authorization: bearer },
        body: { evidenceRef: 'meeting-notes-1' },
      },
    );
    expect(response.status).toBe(200);

    // The profile's own detected milestone publishes a milestone.completed too (maybe after the reset,
    // from the outbox relay); the consumer span wanted is the one in the completing request's trace.
    const consumed = await waitFor(async () => {
      const spans = tracing.spans();
      const requestTraces = new Set(
        spans.filter((s) => s.name.includes('CompleteMilestone')).map((s) => s.spanContext().traceId),
      );
      return spans.find(
        (s) =>
          s.kind === SpanKind.CONSUMER &&
          s.name.includes('milestone.completed') &&
          requestTraces.has(s.spanContext().traceId),
      );
    });
    const trace = tracing.spans().filter((s) => s.spanContext().traceId === consumed.spanContext().traceId);
    const byId = new Map(trace.map((s) => [s.spanContext().spanId, s]));
    const chain: string[] = [];
    for (let span = consumed as (typeof trace)[number] | undefined; span;) {
      chain.unshift(`${SpanKind[span.kind]} ${span.name}`);
      const parentId = span.parentSpanContext?.spanId;
      span = parentId ? byId.get(parentId) : undefined;
    }
    const kinds = chain.map((link) => link.split(' ')[0]);
    // One unbroken chain from the HTTP request to the consumer, in this order.
    expect(kinds[0]).toBe('SERVER');
    expect(chain.some((l) => l.startsWith('CLIENT grpc') && l.includes('CompleteMilestone'))).toBe(true);
    expect(chain.some((l) => l.startsWith('SERVER grpc') && l.includes('CompleteMilestone'))).toBe(true);
    expect(chain.some((l) => l.startsWith('PRODUCER'))).toBe(true);
    expect(kinds[kinds.length - 1]).toBe('CONSUMER');
    expect(kinds.indexOf('PRODUCER')).toBeLessThan(kinds.indexOf('CONSUMER'));
  });
});
