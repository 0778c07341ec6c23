import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TenantGroup } from '@tap/events';
import { createLogger } from '@tap/telemetry';
import { productBatchHandler, TENANT_WRITE_CONCURRENCY } from '../src/events/batch-handler.js';
import { createBatchTimings } from '../src/events/batch-timings.js';
import type { IngestDeps } from '../src/operations/ingest-product-events.js';
import { productEvent } from './support/events.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-03-01T00:00:00.000Z');
const silent = createLogger({ service: 'adoption-test', level: 'silent' });
/** How long a write waits for the others to join it before it goes on alone (never on a healthy run). */
const JOIN_BOUND_MS = 10_000;
/** Tenants written at once: 2 left 1,000 one-event tenants behind a 500/s stream (adoption-history.md §6). */
const EXPECTED_CONCURRENCY = 4;

/** One tenant's group of `count` product.created events, as the consumer hands it over. */
function groupOf(tenantId: string, firstSeq: number, count: number): TenantGroup {
  return {
    tenantId,
    items: Array.from({ length: count }, (_, i) => ({
      event: productEvent(tenantId, 'product.created', { productId: `p-${i}` }, NOW),
      seq: firstSeq + i,
      redelivered: false,
      deliveryCount: 1,
    })),
  };
}

describe('the batch handler over many tenants', () => {
  let bed: TestBed;
  let deps: IngestDeps;

  beforeAll(async () => {
    bed = await openTestBed('batch_concurrency');
    bed.clock.set(NOW);
    deps = storeIngestDeps(bed.db, bed.clock);
  });
  afterAll(async () => {
    await bed?.close();
  });

  it(`writes ${EXPECTED_CONCURRENCY} tenants at once, each tenant once, and times the batch's stages`, async () => {
    const tenants = Array.from({ length: 3 * EXPECTED_CONCURRENCY }, () => randomUUID());
    let inFlight = 0;
    let notWritten = tenants.length;
    let mostInFlight = 0;
    const writesOf = new Map<string, number>();
    const timings = createBatchTimings();
    const handler = productBatchHandler({
      ...deps,
      aggregates: {
        load: (tenantId) => deps.aggregates.load(tenantId),
        applyFacts: async (tenantId, ...rest) => {
          inFlight += 1;
          notWritten -= 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          writesOf.set(tenantId, (writesOf.get(tenantId) ?? 0) + 1);
          try {
            // Each write waits for the others the handler lets run beside it: a signal, not a
            // timing; the bound only keeps a handler that writes fewer at once from hanging.
            const joining = () => inFlight < TENANT_WRITE_CONCURRENCY && notWritten > 0;
            for (let waited = 0; joining() && waited < JOIN_BOUND_MS; waited += 5) await sleep(5);
            return await deps.aggregates.applyFacts(tenantId, ...rest);
          } finally {
            inFlight -= 1;
          }
        },
      },
      logger: silent,
      timings,
    });

    const outcomes = await handler(tenants.map((tenantId, i) => groupOf(tenantId, 1 + i * 3, 3)));
    timings.finish({ messages: tenants.length * 3, tenants: tenants.length, waitedMs: 0, durationMs: 0 });

    expect(mostInFlight).toBe(EXPECTED_CONCURRENCY);
    expect(tenants.map((t) => outcomes.get(t)?.kind)).toEqual(tenants.map(() => 'ok'));
    expect(tenants.map((t) => writesOf.get(t))).toEqual(tenants.map(() => 1));
    const applied = await Promise.all(
      tenants.map(async (t) => (await deps.aggregates.load(t)).appliedEvents),
    );
    expect(applied).toEqual(tenants.map(() => 3));
    const [batch] = timings.recent();
    expect(batch?.writeMs).toBeGreaterThan(0);
    expect(batch?.loadMs).toBeGreaterThan(0);
    expect(batch?.rawLogMs).toBeGreaterThan(0);
    expect(batch?.handlerMs).toBeGreaterThanOrEqual(batch?.rawLogMs ?? Infinity);
  });
});
