import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import type { TenantProjection } from '../src/domain/index.js';
import {
  AGGREGATES_COLLECTION,
  storedProjection,
  type AggregateDocument,
} from '../src/store/aggregate-document.js';
import { DRIFT_SCHEDULE_COLLECTION } from '../src/store/drift-repository.js';
import { productEvent, supplierJourney } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const DAY = 86_400_000;
const RESCAN_MS = 15 * 60_000;
const T0 = new Date('2025-06-02T08:00:00.000Z');

let bed: TestBed;

beforeAll(async () => {
  // A drift watch that never runs on its own: each pass below is run by hand.
  bed = await openTestBed('projection reads', {
    intervalMs: 3_600_000,
    rescanMs: RESCAN_MS,
    leaseMs: 60_000,
  });
  await bed.startConsumer();
});
afterAll(async () => {
  await bed?.close();
});

const aggregates = () => bed.db.collection<AggregateDocument>(AGGREGATES_COLLECTION);

/** What the tenant's document says of its writes: both counters, the write time and the projection. */
async function stored(tenantId: string) {
  const doc = await aggregates().findOne({ _id: tenantId });
  return {
    version: doc?.version ?? 0,
    driftRevision: doc?.driftRevision ?? 0,
    updatedAt: doc?.updatedAt?.toISOString() ?? null,
    projection: storedProjection(doc?.projection) ?? null,
  };
}

/** Every read RPC of adoption, once. */
async function readAll(tenantId: string) {
  const auth = await bed.as(tenantId);
  return {
    state: await unaryCall(bed.client, 'GetState', {}, auth),
    coverage: await unaryCall(bed.client, 'GetCoverage', {}, auth),
    nba: await unaryCall(bed.client, 'GetNextBestAction', {}, auth),
    signals: await unaryCall(bed.client, 'ListRiskSignals', {}, auth),
    explanation: await unaryCall(bed.client, 'GetHealthExplanation', {}, auth),
    plan: await unaryCall(bed.client, 'GetSuccessPlan', {}, auth),
  };
}

async function publishJourney(tenantId: string): Promise<void> {
  bed.clock.set(new Date(T0.getTime() + 20 * DAY));
  for (const event of supplierJourney(tenantId, T0)) await bed.publisher.publish(event);
  await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
}

describe('adoption reads', () => {
  it('serve the projection the event write stored, and write nothing', async () => {
    const tenantId = randomUUID();
    await publishJourney(tenantId);
    const before = await stored(tenantId);
    expect(before.projection).not.toBeNull();
    const projection = before.projection as TenantProjection;
    expect(projection.appliedEvents).toBeGreaterThan(0);

    // Hours later, with no write in between: the reads answer what the write stored, as of then.
    bed.clock.set(new Date(bed.clock.now().getTime() + 5 * 3_600_000));
    const read = await readAll(tenantId);
    expect(read.state.lastRecomputedAt).toBe(projection.state.lastRecomputedAt);
    expect(read.state.healthScore ?? null).toBe(projection.state.healthScore);
    expect(Number(read.state.version)).toBe(before.version);
    expect(read.state.appliedEventCount).toBe(projection.appliedEvents);
    expect(read.state.milestones.map((m) => [m.key, m.status, m.completedAt ?? null])).toEqual(
      projection.state.milestones.map((m) => [m.key, m.status, m.completedAt]),
    );
    expect(read.coverage.cells.map((c) => [c.key, c.count])).toEqual(
      projection.coverage.map((c) => [c.key, c.count]),
    );
    expect(read.explanation.asOf).toBe(projection.explanation.asOf);
    expect(read.explanation.healthScore ?? null).toBe(projection.explanation.healthScore);
    expect(read.signals.signals.map((s) => s.id)).toEqual(projection.signals.map((s) => s.id));

    expect(await stored(tenantId)).toEqual(before);
  });

  it('answer a tenant nothing was written for with the empty projection, and create nothing', async () => {
    const tenantId = randomUUID();
    const read = await readAll(tenantId);
    expect(read.state.appliedEventCount).toBe(0);
    expect(read.state.healthScore ?? null).toBeNull();
    expect(read.state.milestones.length).toBeGreaterThan(0);
    expect(read.coverage.cells.every((c) => c.count === 0)).toBe(true);
    expect(read.signals.signals).toEqual([]);
    expect(await aggregates().countDocuments({ _id: tenantId })).toBe(0);
    expect(
      await bed.db.collection<{ _id: string }>(DRIFT_SCHEDULE_COLLECTION).countDocuments({ _id: tenantId }),
    ).toBe(0);
  });

  it('show health decay once the drift watch has refreshed the projection, not before', async () => {
    const tenantId = randomUUID();
    await publishJourney(tenantId);
    const auth = await bed.as(tenantId);
    const fresh = await unaryCall(bed.client, 'GetHealthExplanation', {}, auth);

    // Sixty quiet days: time alone lowers freshness and engagement.
    bed.clock.set(new Date(bed.clock.now().getTime() + 60 * DAY));
    const stale = await unaryCall(bed.client, 'GetHealthExplanation', {}, auth);
    expect(stale).toEqual(fresh);

    const { version } = await stored(tenantId);
    const report = await bed.app.runDriftWatch();
    expect(report.recorded).toBeGreaterThanOrEqual(1);
    const refreshed = await unaryCall(bed.client, 'GetHealthExplanation', {}, auth);
    expect(refreshed.asOf).toBe(bed.clock.now().toISOString());
    expect(refreshed.healthScore ?? 0).toBeLessThan(fresh.healthScore ?? 0);
    const state = await unaryCall(bed.client, 'GetState', {}, auth);
    expect(state.lastRecomputedAt).toBe(bed.clock.now().toISOString());
    // The drift watch records time's effect without moving the facts' version.
    expect(Number(state.version)).toBe(version);
  });

  it('serve a completion made without expectedVersion, with its projection stored', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, bed.clock.now()));
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    const auth = await bed.as(tenantId, 'OWNER');
    await unaryCall(bed.client, 'CompleteMilestone', { key: 'kickoff_call_held' }, auth);
    const { projection, version } = await stored(tenantId);
    const kickoff = projection?.state.milestones.find((m) => m.key === 'kickoff_call_held');
    expect(kickoff?.status).toBe('DONE');
    expect(projection?.state.version).toBe(version);
    const state = await unaryCall(bed.client, 'GetState', {}, auth);
    expect(state.milestones.find((m) => m.key === 'kickoff_call_held')?.status).toBe('DONE');
  });

  it('project a document written before projections once start-up has scheduled it and the drift watch ran', async () => {
    const tenantId = randomUUID();
    await publishJourney(tenantId);
    const { projection } = await stored(tenantId);
    // As an older replica left it: everything but the projection.
    await aggregates().updateOne({ _id: tenantId }, { $unset: { projection: '' } });
    await bed.db.collection<{ _id: string }>(DRIFT_SCHEDULE_COLLECTION).deleteOne({ _id: tenantId });

    await bed.app.prepare();
    await bed.app.runDriftWatch();
    const after = await stored(tenantId);
    expect(after.projection?.appliedEvents).toBe(projection?.appliedEvents);
    expect(after.projection?.state.milestones.map((m) => m.status)).toEqual(
      projection?.state.milestones.map((m) => m.status),
    );
    const state = await unaryCall(bed.client, 'GetState', {}, await bed.as(tenantId));
    expect(state.appliedEventCount).toBe(projection?.appliedEvents);
  });
});
