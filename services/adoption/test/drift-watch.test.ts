import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { unaryCall } from '@tap/grpc-kit';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { PARTNER_1, productEvent } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';
import { waitFor } from '@tap/testkit';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date('2025-06-02T08:00:00.000Z');

describe('the drift watch', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('drift', { intervalMs: 50, rescanMs: 15 * 60_000, leaseMs: 60_000 });
    await bed.startConsumer();
  });
  afterAll(async () => {
    await bed?.close();
  });

  const signals = async (tenantId: string) =>
    (await unaryCall(bed.client, 'ListRiskSignals', {}, await bed.as(tenantId))).signals;
  const ledger = async (tenantId: string) =>
    (await aggregatesRepository(bed.db, createTenantWriteLock()).load(tenantId)).signals;

  /** A tenant that invited a partner at `at` and never heard back. */
  async function invitingTenant(at: Date): Promise<string> {
    const tenantId = randomUUID();
    bed.clock.set(at);
    await bed.publisher.publish(
      productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, at, {
        partnerTenantId: PARTNER_1,
      }),
    );
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    return tenantId;
  }

  it('opens a risk when time alone makes one, climbs the ladder on the documented delays, and resolves it', async () => {
    const tenantId = await invitingTenant(T0);
    expect(await signals(tenantId)).toEqual([]);

    // Detected 3 days after the invitation (the grace period), then 1, 7 and 14 days later.
    const detectedAt = new Date(T0.getTime() + 3 * DAY);
    const steps = [
      { after: HOUR, resolution: 'OPEN', severity: 'LOW', escalatedToHuman: false },
      { after: DAY + HOUR, resolution: 'AUTO_NUDGED', severity: 'LOW', escalatedToHuman: false },
      { after: 7 * DAY + HOUR, resolution: 'REO_PROMPTED', severity: 'MEDIUM', escalatedToHuman: false },
      { after: 14 * DAY + HOUR, resolution: 'ESCALATED', severity: 'HIGH', escalatedToHuman: true },
    ];
    for (const step of steps) {
      bed.clock.set(new Date(detectedAt.getTime() + step.after));
      await bed.app.runDriftWatch();
      expect(await signals(tenantId)).toEqual([
        expect.objectContaining({
          kind: 'INVITATION_UNACCEPTED',
          subjectRef: { connectionId: 'c-1' },
          detectedAt: detectedAt.toISOString(),
          resolution: step.resolution,
          severity: step.severity,
          escalatedToHuman: step.escalatedToHuman,
        }),
      ]);
    }

    const acceptedAt = bed.clock.now();
    await bed.publisher.publish(
      productEvent(tenantId, 'connection.accepted', { connectionId: 'c-1' }, acceptedAt, {
        partnerTenantId: PARTNER_1,
      }),
    );
    await waitFor('the risk to resolve', async () => (await signals(tenantId)).length === 0);
    expect(await ledger(tenantId)).toEqual([
      expect.objectContaining({
        resolution: 'RESOLVED',
        resolvedAt: acceptedAt.toISOString(),
        escalatedToHuman: true,
      }),
    ]);
  });

  it('records each ladder move exactly once when two replicas run passes at the same time', async () => {
    const start = new Date(T0.getTime() + 100 * DAY);
    const tenants = Array.from({ length: 6 }, () => randomUUID());
    bed.clock.set(start);
    for (const tenantId of tenants) {
      await bed.publisher.publish(
        productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, start, {
          partnerTenantId: PARTNER_1,
        }),
      );
    }
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    const [a, b] = [bed.replica(), bed.replica()];
    for (const [offset, expected] of [
      [3 * DAY + HOUR, 'OPEN'],
      [4 * DAY + 2 * HOUR, 'AUTO_NUDGED'],
    ] as const) {
      bed.clock.set(new Date(start.getTime() + offset));
      const reports = await Promise.all([a.runDriftWatch(), b.runDriftWatch(), a.runDriftWatch()]);
      const ours = (key: 'claimed' | 'transitions' | 'failed') => reports.reduce((sum, r) => sum + r[key], 0);
      expect(ours('failed')).toBe(0);
      // One move per tenant, not one per replica (the earlier test's tenant is due too, but its
      // resolved risk does not move).
      expect(ours('transitions')).toBe(tenants.length);
      expect(ours('claimed')).toBeGreaterThanOrEqual(tenants.length);
      // Read on the bed's app, written by the replicas: served once their notices arrive
      // (docs/adoption-model.md, "Read models").
      for (const tenantId of tenants)
        await waitFor(
          `${tenantId} ${expected}`,
          async () => (await signals(tenantId))[0]?.resolution === expected,
        );
    }
  });

  it('moves signals on its own schedule once started', async () => {
    const tenantId = await invitingTenant(new Date(T0.getTime() + 200 * DAY));
    const job = bed.app.startDriftWatch();
    try {
      bed.clock.advance(3 * DAY + HOUR);
      await waitFor(
        'the scheduled pass to open the risk',
        async () => (await signals(tenantId)).length === 1,
      );
    } finally {
      await job.stop();
    }
    expect((await signals(tenantId))[0]).toMatchObject({ kind: 'INVITATION_UNACCEPTED', resolution: 'OPEN' });
  });
});
