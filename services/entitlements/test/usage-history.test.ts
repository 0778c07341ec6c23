import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { UsageHistory__Output } from '@tap/contracts';
import type { EventPublisher } from '@tap/events';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { Readiness, createRedisDependency } from '@tap/runtime';
import { as, remoteError } from '@tap/service-testkit';
import { infraUrls } from '@tap/testkit';
import { consumerSettled, productEvent } from './support/events.js';
import { openConsumingBed } from './support/consuming-bed.js';
import type { TestBed } from './support/test-bed.js';

let bed: TestBed;
let publisher: EventPublisher;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ bed, publisher, close } = await openConsumingBed('usage history'));
});
afterAll(() => close());
afterEach(() => bed.clock.reset());

interface HistoryAsk {
  key: string;
  from?: string;
  to?: string;
  granularity?: string;
  apiRequestsDay?: number;
}

async function historyOf(tenantId: string, ask: HistoryAsk): Promise<UsageHistory__Output> {
  return unaryCall(bed.client, 'GetUsageHistory', ask, await as(bed, tenantId));
}

function valuesOf(history: UsageHistory__Output): Record<string, number> {
  return Object.fromEntries(history.points.map((p) => [p.date, p.value]));
}

/** Publishes events as of `at` (their occurredAt and the service's clock) and waits until counted. */
async function countAt(at: string, events: ReturnType<typeof productEvent>[]): Promise<void> {
  bed.clock.set(at);
  for (const event of events) await publisher.publish({ ...event, occurredAt: at });
  await consumerSettled(bed);
}

describe('the usage history', () => {
  it('keeps a daily point per limit, carries gauges over quiet days, and ends on the report', async () => {
    const tenantId = randomUUID();
    const created = (id: string) => productEvent(tenantId, 'product.created', { productId: id });
    await countAt('2026-10-03T09:00:00.000Z', [created('a'), created('b'), created('c')]);
    await countAt('2026-10-05T23:59:00.000Z', [
      productEvent(tenantId, 'product.archived', { productId: 'a' }),
      productEvent(tenantId, 'connection.accepted', { connectionId: 'c1' }),
    ]);
    await countAt('2026-11-02T08:00:00.000Z', [created('d'), created('e')]);
    bed.clock.set('2026-11-04T12:00:00.000Z');

    const products = await historyOf(tenantId, {
      key: 'MAX_ACTIVE_PRODUCTS',
      from: '2026-10-02',
      to: '2026-11-04',
    });
    const values = valuesOf(products);
    expect(products.points).toHaveLength(34);
    expect(values).toMatchObject({
      '2026-10-02': 0,
      '2026-10-03': 3,
      '2026-10-04': 3,
      '2026-10-05': 2,
      '2026-10-31': 2,
      '2026-11-01': 2,
      '2026-11-02': 4,
      '2026-11-04': 4,
    });
    expect(products).toMatchObject({
      key: 'MAX_ACTIVE_PRODUCTS',
      granularity: 'day',
      limit: 1000,
      unlimited: false,
    });
    // A key the events did not touch reads its standing value on every day with a point.
    const connections = valuesOf(
      await historyOf(tenantId, { key: 'MAX_CONNECTIONS', from: '2026-10-04', to: '2026-11-04' }),
    );
    expect([connections['2026-10-04'], connections['2026-10-05'], connections['2026-11-03']]).toEqual([
      0, 1, 1,
    ]);

    const report = await unaryCall(bed.client, 'GetUsage', {}, await as(bed, tenantId));
    for (const limit of report.limits) {
      const history = await historyOf(tenantId, { key: limit.key });
      expect(history.points).toHaveLength(30);
      expect(history.points.at(-1)).toEqual({ date: '2026-11-04', value: limit.current });
    }
  });

  it('counts bulk rows month to date, back to 0 on the first, and a late import in its own month', async () => {
    const tenantId = randomUUID();
    const rows = (n: number) =>
      productEvent(tenantId, 'import.completed', { importId: randomUUID() }, { rows: n });
    await countAt('2026-09-10T10:00:00.000Z', [rows(100)]);
    await countAt('2026-09-20T10:00:00.000Z', [rows(50)]);
    await countAt('2026-10-01T10:00:00.000Z', [rows(7)]);
    // Processed in October, happened in September: September's total grows, October's does not.
    bed.clock.set('2026-10-02T10:00:00.000Z');
    await publisher.publish({ ...rows(5), occurredAt: '2026-09-30T22:00:00.000Z' });
    await consumerSettled(bed);
    bed.clock.set('2026-10-03T10:00:00.000Z');

    const days = valuesOf(
      await historyOf(tenantId, { key: 'BULK_UPLOAD_ROWS_MONTH', from: '2026-09-09', to: '2026-10-03' }),
    );
    expect(days).toMatchObject({
      '2026-09-09': 0,
      '2026-09-10': 100,
      '2026-09-19': 100,
      '2026-09-20': 150,
      '2026-09-30': 155,
      '2026-10-01': 7,
      '2026-10-03': 7,
    });
    const months = await historyOf(tenantId, { key: 'BULK_UPLOAD_ROWS_MONTH', granularity: 'month' });
    expect(months.from).toBe('2025-10-01');
    expect(months.points).toHaveLength(13);
    expect(valuesOf(months)).toMatchObject({ '2025-10': 0, '2026-09': 155, '2026-10': 7 });
  });

  it('reads API requests per UTC day: stored days, today from the caller, months as sums', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await bed.app.history.recordApiRequests(tenantId, '2026-10-30', 40);
    await bed.app.history.recordApiRequests(tenantId, '2026-10-31', 60);
    await bed.app.history.recordApiRequests(tenantId, '2026-11-02', 5);
    await bed.app.history.recordApiRequests(tenantId, '2026-11-02', 9); // a later count of the day replaces it
    bed.clock.set('2026-11-03T15:00:00.000Z');

    const ask = { key: 'API_REQUESTS_DAY', from: '2026-10-30', apiRequestsDay: 12 };
    const days = await historyOf(tenantId, ask);
    expect(days.points).toEqual([
      { date: '2026-10-30', value: 40 },
      { date: '2026-10-31', value: 60 },
      { date: '2026-11-01', value: 0 },
      { date: '2026-11-02', value: 9 },
      { date: '2026-11-03', value: 12 },
    ]);
    expect(days).toMatchObject({ limit: 50_000, unlimited: false, to: '2026-11-03' });
    const report = await unaryCall(bed.client, 'GetUsage', { apiRequestsDay: 12 }, await as(bed, tenantId));
    expect(report.rateLimits.find((r) => r.key === 'API_REQUESTS_DAY')?.current).toBe(
      days.points.at(-1)?.value,
    );

    const months = await historyOf(tenantId, { ...ask, from: '2026-10', granularity: 'month' });
    expect(months.points).toEqual([
      { date: '2026-10', value: 100 },
      { date: '2026-11', value: 21 },
    ]);
  });

  it("shows a tenant nothing of another tenant's history", async () => {
    const [owner, other] = [randomUUID(), randomUUID()];
    await countAt('2026-11-01T10:00:00.000Z', [productEvent(owner, 'product.created', { productId: 'x' })]);
    await bed.app.history.recordApiRequests(owner, '2026-11-01', 99);
    bed.clock.set('2026-11-02T10:00:00.000Z');
    for (const key of ['MAX_ACTIVE_PRODUCTS', 'API_REQUESTS_DAY']) {
      const history = await historyOf(other, { key, from: '2026-11-01' });
      expect(history.points.map((p) => p.value)).toEqual([0, 0]);
    }
  });

  it.each([
    [{ key: 'MAX_WIDGETS' }, 'key'],
    [{ key: 'API_REQUESTS_MINUTE' }, 'key'],
    [{ key: 'MAX_USERS', granularity: 'week' }, 'granularity'],
    [{ key: 'MAX_USERS', from: '2026-02-30' }, 'from'],
    [{ key: 'MAX_USERS', from: '2026-13' }, 'from'],
    [{ key: 'MAX_USERS', to: 'yesterday' }, 'to'],
    [{ key: 'MAX_USERS', from: '2026-11-02', to: '2026-11-01' }, 'from'],
    [{ key: 'MAX_USERS', to: '2026-11-21' }, 'to'],
    [{ key: 'MAX_USERS', to: '2026-12' }, 'to'],
    [{ key: 'MAX_USERS', from: '2025-10-31' }, 'from'],
  ])('refuses %j as INVALID_HISTORY_QUERY on %s', async (ask, field) => {
    bed.clock.set('2026-11-20T10:00:00.000Z');
    const error = await remoteError(historyOf(randomUUID(), ask));
    expect(error.grpcStatus).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(error.reason).toBe('INVALID_HISTORY_QUERY');
    expect(error.details).toMatchObject({ field });
  });

  it('accepts the oldest day kept and a month as a range end', async () => {
    bed.clock.set('2026-11-20T10:00:00.000Z');
    const history = await historyOf(randomUUID(), { key: 'MAX_USERS', from: '2025-11-01', to: '2026-11' });
    expect(history).toMatchObject({ from: '2025-11-01', to: '2026-11-20' });
    expect(history.points).toHaveLength(385);
  });

  it('drops the months older than the 13 kept in the clean-up pass', async () => {
    const tenantId = randomUUID();
    await bed.app.history.recordApiRequests(tenantId, '2025-01-15', 3);
    await bed.app.history.recordApiRequests(tenantId, '2026-01-15', 4);
    bed.clock.set('2026-11-20T10:00:00.000Z');
    const report = await bed.app.runCleanup();
    expect(report.prunedHistoryMonths).toBeGreaterThanOrEqual(1);
    const left = await bed.app.history.months(tenantId, 'API_REQUESTS_DAY', ['2025-01', '2026-01']);
    expect(left.map((m) => m.month)).toEqual(['2026-01']);
  });

  it("copies the gateway's API request counts of yesterday and today from Redis, once per change", async () => {
    const redis = createRedisDependency({
      url: infraUrls().redisUrl,
      name: 'usage-history-test',
      readiness: new Readiness(),
      logger: { info: () => undefined, warn: () => undefined },
    });
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    const tenantId = randomUUID();
    const keys = ['api-requests:2026-11-02', 'api-requests:2026-11-03'];
    try {
      await redis.hincrby(keys[0]!, tenantId, 17);
      await redis.hincrby(keys[1]!, tenantId, 4);
      await redis.hset(keys[1]!, 'not a tenant id', 'x');
      bed.clock.set('2026-11-03T10:00:00.000Z');
      const first = await bed.app.copyApiRequestDays(redis);
      expect(first.written).toBeGreaterThanOrEqual(2);
      const history = await historyOf(tenantId, {
        key: 'API_REQUESTS_DAY',
        from: '2026-11-02',
        apiRequestsDay: 5,
      });
      expect(history.points).toEqual([
        { date: '2026-11-02', value: 17 },
        { date: '2026-11-03', value: 5 },
      ]);
      const stored = await bed.app.history.months(tenantId, 'API_REQUESTS_DAY', ['2026-11']);
      expect(stored[0]?.days).toEqual({ '02': { API_REQUESTS_DAY: 17 }, '03': { API_REQUESTS_DAY: 4 } });
      // Nothing moved: nothing of this tenant is written again.
      await bed.app.copyApiRequestDays(redis);
      await redis.hincrby(keys[1]!, tenantId, 3);
      await bed.app.copyApiRequestDays(redis);
      const moved = await bed.app.history.months(tenantId, 'API_REQUESTS_DAY', ['2026-11']);
      expect(moved[0]?.days['03']).toEqual({ API_REQUESTS_DAY: 7 });
    } finally {
      for (const key of keys) await redis.hdel(key, tenantId, 'not a tenant id');
      await redis.quit();
    }
  });
});
