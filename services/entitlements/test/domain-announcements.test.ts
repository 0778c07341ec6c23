import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@tap/contracts';
import { createDomainEventPublisher, ensureEventStream } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { Readiness, createRedisDependency } from '@tap/runtime';
import { infraUrls, waitFor } from '@tap/testkit';
import { DOMAIN_ANNOUNCEMENTS_COLLECTION } from '../src/store/domain-announcements-repository.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

/**
 * tier.changed and usage.threshold_* on the domain stream (real NATS and FerretDB). MAX_USERS
 * of SUPPLIER_PLUS is 10: 8 seats reach 80%, 10 reach 100%.
 */
describe('entitlements announces tier changes and usage thresholds on the domain stream', () => {
  let bed: TestBed;
  let busDown = false;
  let failures = 0;
  let domain: { streamName: string; subjectPrefix: string };

  beforeAll(async () => {
    bed = await openTestBed('domain_announce', {
      publishDomain: (event) => {
        if (busDown) {
          failures += 1;
          return Promise.reject(new Error('nats is down'));
        }
        return createDomainEventPublisher(bed.js, { subjectPrefix: domain.subjectPrefix }).publish(event);
      },
    });
    domain = {
      streamName: `${bed.events.streamName}_DOMAIN`,
      subjectPrefix: `${bed.events.subjectPrefix}_domain`,
    };
    await ensureEventStream(bed.jsm, { ...domain, duplicateWindowMs: 60_000 });
  });
  afterAll(async () => {
    await bed?.jsm.streams.delete(domain.streamName).catch(() => undefined);
    await bed?.close();
  });

  const asIdentity = async (tenantId: string) => ({
    authorization: await bed.tokens.serviceBearer(tenantId),
  });
  const take = async (tenantId: string, userId: string) =>
    unaryCall(bed.identityClient, 'TakeSeat', { userId }, await asIdentity(tenantId));
  const release = async (tenantId: string, userId: string) =>
    unaryCall(bed.identityClient, 'ReleaseSeat', { userId }, await asIdentity(tenantId));
  const pending = (tenantId: string) =>
    bed.db
      .collection(DOMAIN_ANNOUNCEMENTS_COLLECTION)
      .countDocuments({ _id: tenantId as never, pending: true });
  /** Every event of the tenant the domain stream holds, in order. */
  const stored = async (tenantId: string): Promise<DomainEvent[]> => {
    const info = await bed.jsm.streams.info(domain.streamName);
    const events: DomainEvent[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq += 1) {
      const message = await bed.jsm.streams.getMessage(domain.streamName, { seq }).catch(() => null);
      const event = message?.json<DomainEvent>();
      if (event?.tenantId === tenantId) events.push(event);
    }
    return events;
  };
  /** Until the tenant's mark is settled (by the write's own announcement or the relay). */
  const settled = (tenantId: string) =>
    waitFor('the announcement settled', async () => {
      await bed.app.runDomainAnnouncements();
      return (await pending(tenantId)) === 0;
    });
  const thresholds = (events: DomainEvent[]) =>
    events
      .filter((e) => e.type.startsWith('usage.'))
      .map((e) => [e.type, e.subject['limitKey'], (e.data as { thresholdPercent: number }).thresholdPercent]);

  it('announces a tier change, then each threshold once per crossing, up and down', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    await settled(tenantId);
    for (let i = 1; i <= 8; i += 1) {
      await take(tenantId, `u${i}`);
      await settled(tenantId);
    }
    // 9 stays above 80% and below 100%: nothing new.
    await take(tenantId, 'u9');
    await settled(tenantId);
    await take(tenantId, 'u10');
    await settled(tenantId);
    for (const user of ['u10', 'u9', 'u8', 'u7']) {
      await release(tenantId, user);
      await settled(tenantId);
    }
    // Passes over a settled tenant, and the hourly sweep, announce nothing again.
    await bed.app.runDomainAnnouncements({ sweep: true });
    await bed.app.runDomainAnnouncements();

    const events = await stored(tenantId);
    expect(events.filter((e) => e.type === 'tier.changed').map((e) => e.data)).toEqual([
      expect.objectContaining({ to: 'SUPPLIER_PLUS' }),
    ]);
    expect(thresholds(events)).toEqual([
      ['usage.threshold_reached', 'MAX_USERS', 80],
      ['usage.threshold_reached', 'MAX_USERS', 100],
      ['usage.threshold_cleared', 'MAX_USERS', 100],
      ['usage.threshold_cleared', 'MAX_USERS', 80],
    ]);
    const reached = events.find((e) => e.type === 'usage.threshold_reached');
    expect(reached?.data).toMatchObject({ current: 8, limit: 10, thresholdPercent: 80 });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it("writes an audit entry for the operator's tier change, from and to, once", async () => {
    const tenantId = randomUUID();
    await take(tenantId, 'u1'); // the default tier, announced without an audit entry
    await settled(tenantId);
    await bed.setTier(tenantId, 'CORE');
    await settled(tenantId);
    await bed.app.runDomainAnnouncements({ sweep: true });
    await bed.app.runDomainAnnouncements();
    const audits = (await stored(tenantId)).filter((e) => e.type === 'audit.entry_recorded');
    expect(audits.map((e) => ({ subject: e.subject, data: e.data }))).toEqual([
      {
        subject: {},
        data: {
          actor: { type: 'operator' },
          action: 'tier.changed',
          target: { type: 'tenant', id: tenantId },
          outcome: 'SUCCESS',
          change: { from: 'SUPPLIER_FREE', to: 'CORE' },
        },
      },
    ]);
  });

  it('announces the daily API quota at 80 % and 100 % once per crossing, and again the next UTC day', async () => {
    const redis = createRedisDependency({
      url: infraUrls().redisUrl,
      name: 'domain-announcements-test',
      readiness: new Readiness(),
      logger: { info: () => undefined, warn: () => undefined },
    });
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    const tenantId = randomUUID();
    // SUPPLIER_PLUS allows 10,000 API requests a day: 8,000 reach 80 %.
    const keys = ['api-requests:2026-12-08', 'api-requests:2026-12-09'] as const;
    const count = async (key: string, by: number) => {
      await redis.hincrby(key, tenantId, by);
      await bed.app.copyApiRequestDays(redis);
      await settled(tenantId);
    };
    const quota = async () =>
      (await stored(tenantId))
        .filter((e) => e.type.startsWith('usage.') && e.subject['limitKey'] === 'API_REQUESTS_DAY')
        .map((e) => {
          const data = e.data as { thresholdPercent: number; periodStart: string };
          return [e.type, data.thresholdPercent, data.periodStart];
        });
    try {
      bed.clock.set('2026-12-08T10:00:00.000Z');
      await bed.setTier(tenantId, 'SUPPLIER_PLUS');
      await settled(tenantId);
      await count(keys[0], 7_999);
      expect(await quota()).toEqual([]);
      await count(keys[0], 1);
      await count(keys[0], 1_000);
      await count(keys[0], 1_000);
      // A copy that moved nothing, a fold of the same count and the sweep publish nothing more.
      await count(keys[0], 0);
      await bed.app.runDomainAnnouncements({ sweep: true });
      await bed.app.runDomainAnnouncements();
      const day1 = '2026-12-08T00:00:00.000Z';
      expect(await quota()).toEqual([
        ['usage.threshold_reached', 80, day1],
        ['usage.threshold_reached', 100, day1],
      ]);

      // The next UTC day starts again from nothing, without a cleared.
      bed.clock.set('2026-12-09T00:05:00.000Z');
      await count(keys[1], 8_000);
      await bed.app.runDomainAnnouncements({ sweep: true });
      await bed.app.runDomainAnnouncements();
      const day2 = '2026-12-09T00:00:00.000Z';
      expect(await quota()).toEqual([
        ['usage.threshold_reached', 80, day1],
        ['usage.threshold_reached', 100, day1],
        ['usage.threshold_reached', 80, day2],
      ]);
      // A larger quota the same day (CORE: 50,000) drops the count below 80 %.
      await bed.setTier(tenantId, 'CORE');
      await settled(tenantId);
      const events = await stored(tenantId);
      expect((await quota()).at(-1)).toEqual(['usage.threshold_cleared', 80, day2]);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    } finally {
      bed.clock.reset();
      for (const key of keys) await redis.hdel(key, tenantId);
      await redis.quit();
    }
  });

  it('keeps a crossing while the bus is down and publishes it once after it comes back', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    await settled(tenantId);
    for (let i = 1; i <= 7; i += 1) await take(tenantId, `u${i}`);
    await settled(tenantId);
    busDown = true;
    try {
      await take(tenantId, 'u8');
      await waitFor('a failed publish', async () => failures > 0);
      expect((await bed.app.runDomainAnnouncements()).failed).toBe(1);
      expect(await pending(tenantId)).toBe(1);
    } finally {
      busDown = false;
    }
    await settled(tenantId);
    await bed.app.runDomainAnnouncements({ sweep: true });
    await bed.app.runDomainAnnouncements();
    expect(thresholds(await stored(tenantId))).toEqual([['usage.threshold_reached', 'MAX_USERS', 80]]);

    // A new tier is a new period for the gauges: 8 of CORE's 25 seats, no crossing, no cleared.
    await bed.setTier(tenantId, 'CORE');
    await settled(tenantId);
    const events = await stored(tenantId);
    expect(events.filter((e) => e.type === 'tier.changed').map((e) => e.data)).toEqual([
      expect.objectContaining({ to: 'SUPPLIER_PLUS' }),
      expect.objectContaining({ from: 'SUPPLIER_PLUS', to: 'CORE' }),
    ]);
    expect(thresholds(events)).toEqual([['usage.threshold_reached', 'MAX_USERS', 80]]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });
});
