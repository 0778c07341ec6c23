import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { CommandStartedEvent } from 'mongodb';
import { unaryCall } from '@tap/grpc-kit';
import { waitFor } from '@tap/testkit';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { productEvent } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const NOW = new Date('2025-04-01T09:00:00.000Z');
const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);

describe('the tier arrives by event (entitlements’ tier.changed) on real NATS and FerretDB', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('tiers');
    bed.clock.set(NOW);
    await bed.startConsumer();
  });
  afterAll(async () => {
    await bed?.close();
  });

  const load = (tenantId: string) => aggregatesRepository(bed.db, createTenantWriteLock()).load(tenantId);
  const settled = () => consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);

  it('stores the tier a tier.changed names, recomputes, and shows that tier’s upgrade offers', async () => {
    const tenantId = randomUUID();
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, NOW));
    await bed.setTier(tenantId, 'SUPPLIER_FREE');
    await settled();
    expect((await load(tenantId)).tier).toMatchObject({ tierCode: 'SUPPLIER_FREE', pathProfile: 'SUPPLIER' });
    const auth = await bed.as(tenantId);
    const free = await unaryCall(bed.client, 'GetState', {}, auth);
    const offer = free.milestones.find((m) => m.requiredCapability === 'TRACEABILITY')?.upgradeContext;
    expect(offer).toMatchObject({ capability: 'TRACEABILITY', currentTier: { code: 'SUPPLIER_FREE' } });

    const before = (await load(tenantId)).version;
    await bed.setTier(tenantId, 'ENTERPRISE');
    await settled();
    const stored = await load(tenantId);
    expect(stored.tier).toMatchObject({ tierCode: 'ENTERPRISE' });
    expect(stored.version).toBe(before + 1);
    // The read model hears of the write: the next read shows the new tier, without an offer.
    await waitFor('the read to show ENTERPRISE', async () => {
      const state = await unaryCall(bed.client, 'GetState', {}, auth);
      return state.milestones.find((m) => m.requiredCapability === 'TRACEABILITY')?.upgradeContext == null;
    });
    expect(stored.appliedEvents).toBe(1);
  });

  it('never goes back to an older tier when an older tier.changed comes late or is replayed', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await settled();
    const changedAt = (await load(tenantId)).tier?.changedAt;
    expect(changedAt).toBeDefined();
    const older = {
      id: randomUUID(),
      type: 'tier.changed' as const,
      tenantId,
      occurredAt: new Date(Date.parse(changedAt ?? '') - 60_000).toISOString(),
      subject: {},
      data: {
        tierCode: 'SUPPLIER_FREE',
        tierName: 'Supplier Free',
        pathProfile: 'SUPPLIER',
        capabilities: [],
        catalogueVersion: 1,
        upgradeContexts: {},
      },
    };
    const version = (await load(tenantId)).version;
    await bed.publisher.publish(older);
    await settled();
    const after = await load(tenantId);
    expect(after.tier).toMatchObject({ tierCode: 'CORE' });
    expect(after.version).toBe(version);
  });

  it('dead-letters a tier.changed whose data is no tier, and applies the tenant’s later events', async () => {
    const tenantId = randomUUID();
    const broken = {
      id: randomUUID(),
      type: 'tier.changed',
      tenantId,
      occurredAt: NOW.toISOString(),
      subject: {},
      data: { tierCode: 'CORE' },
    };
    await bed.js.publish(`${bed.events.subjectPrefix}.${tenantId}.tier.changed`, JSON.stringify(broken), {
      msgID: broken.id,
    });
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, NOW));
    await settled();
    const stored = await load(tenantId);
    expect(stored.tier).toBeNull();
    expect(stored.appliedEvents).toBe(1);
  });

  it('answers every read without a write to the database (adoption has no entitlements client at all)', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, NOW));
    await settled();
    const auth = await bed.as(tenantId);
    const writes: string[] = [];
    const listener = (event: CommandStartedEvent) => {
      if (WRITES.has(event.commandName))
        writes.push(`${event.commandName} ${String(event.command[event.commandName])}`);
    };
    bed.db.client.on('commandStarted', listener);
    try {
      for (const method of ['GetState', 'GetNextBestAction', 'GetCoverage', 'GetHealthExplanation'] as const)
        await unaryCall(bed.client, method, {}, auth);
    } finally {
      bed.db.client.off('commandStarted', listener);
    }
    expect(writes).toEqual([]);
  });
});
