import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { eventSubject, type ProductEvent } from '@tap/contracts';
import { createEventPublisher, ensureEventStream } from '@tap/events';
import { TIER_CATALOGUE_VERSION, tierChangedData, getTier } from '../src/domain/index.js';
import { TIER_ANNOUNCEMENTS_COLLECTION } from '../src/store/tier-announcements-repository.js';
import { waitFor } from '@tap/testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';

describe('tier changes announced on the bus as tier.changed (real NATS and FerretDB)', () => {
  let bed: TestBed;
  // Set by a test: publishes fail as if NATS were down.
  let busDown = false;
  let failures = 0;

  beforeAll(async () => {
    bed = await openTestBed('announce', {
      publish: (event) => {
        if (busDown) {
          failures += 1;
          return Promise.reject(new Error('nats is down'));
        }
        return createEventPublisher(bed.js, { subjectPrefix: bed.events.subjectPrefix }).publish(event);
      },
    });
    await ensureEventStream(bed.jsm, bed.events);
  });
  afterAll(async () => {
    await bed?.close();
  });

  const subject = (tenantId: string) => eventSubject(tenantId, 'tier.changed', bed.events.subjectPrefix);
  /** How many tier.changed messages the stream holds for the tenant, and the latest one. */
  const announced = async (tenantId: string): Promise<{ count: number; last: ProductEvent | undefined }> => {
    const { state } = await bed.jsm.streams.info(bed.events.streamName, {
      subjects_filter: subject(tenantId),
    });
    const count = state.subjects?.[subject(tenantId)] ?? 0;
    if (count === 0) return { count, last: undefined };
    const last = await bed.jsm.streams.getMessage(bed.events.streamName, { last_by_subj: subject(tenantId) });
    return { count, last: last?.json<ProductEvent>() };
  };
  const marks = (tenantId: string) =>
    bed.db.collection(TIER_ANNOUNCEMENTS_COLLECTION).countDocuments({ _id: tenantId as never });

  it('publishes a tier change at once with the tier, its capabilities, its upgrade offers and the catalogue version', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    // Published right after SetTier answered, off its path.
    await waitFor('the tier.changed', async () => (await marks(tenantId)) === 0);
    const events = await announced(tenantId);
    expect(events.count).toBe(1);
    expect(events.last).toMatchObject({
      type: 'tier.changed',
      tenantId,
      subject: {},
      data: { ...tierChangedData(getTier('CORE')), catalogueVersion: TIER_CATALOGUE_VERSION },
    });
    expect(await marks(tenantId)).toBe(0);
    // Nothing is left for the relay.
    expect(await bed.app.runTierAnnouncements()).toMatchObject({ pending: 0 });
    await bed.setTier(tenantId, 'ENTERPRISE');
    await waitFor('the second tier.changed', async () => (await announced(tenantId)).count === 2);
    const after = await announced(tenantId);
    expect(after.count).toBe(2);
    expect(after.last?.data).toMatchObject({ tierCode: 'ENTERPRISE' });
  });

  it('keeps a change whose publish failed marked, and the relay publishes it once the bus is back', async () => {
    const tenantId = randomUUID();
    busDown = true;
    try {
      await bed.setTier(tenantId, 'SUPPLIER_PLUS');
      // The publish right after SetTier failed: the mark stays for the relay.
      await waitFor('the failed publish', async () => failures > 0);
      expect((await announced(tenantId)).count).toBe(0);
      expect(await marks(tenantId)).toBe(1);
      expect(await bed.app.runTierAnnouncements()).toMatchObject({ published: 0, failed: 1 });
    } finally {
      busDown = false;
    }
    expect(await bed.app.runTierAnnouncements()).toMatchObject({ published: 1, failed: 0 });
    const events = await announced(tenantId);
    expect(events.count).toBe(1);
    expect(events.last?.data).toMatchObject({ tierCode: 'SUPPLIER_PLUS' });
    expect(await marks(tenantId)).toBe(0);
    expect(await bed.app.runTierAnnouncements()).toMatchObject({ pending: 0, published: 0 });
  });

  it('announces every assigned tenant once when the catalogue version announced is older', async () => {
    const tenants = [randomUUID(), randomUUID(), randomUUID()];
    const now = new Date();
    await bed.db
      .collection('tier_assignments')
      .insertMany(tenants.map((id) => ({ _id: id as never, tierCode: 'CORE', updatedAt: now })));
    await bed.db.collection('tier_announced_catalogue').deleteMany({});
    await bed.app.prepare();
    for (;;) {
      const report = await bed.app.runTierAnnouncements();
      if (report.pending === 0) break;
      expect(report.failed).toBe(0);
    }
    for (const tenantId of tenants) expect((await announced(tenantId)).count).toBe(1);
    // The next start marks nothing: this catalogue version has been announced.
    await bed.app.prepare();
    expect(await bed.app.runTierAnnouncements()).toMatchObject({ pending: 0 });
  });
});
