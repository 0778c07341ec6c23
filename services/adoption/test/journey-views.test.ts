import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { remoteError } from '@tap/service-testkit';
import { supplierJourney } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const START = new Date('2025-02-03T09:00:00.000Z');
const NOW = new Date('2025-02-09T09:00:00.000Z');

describe('the journey views over gRPC', () => {
  let bed: TestBed;
  let free: string;
  let core: string;

  beforeAll(async () => {
    bed = await openTestBed('views');
    bed.clock.set(NOW);
    await bed.startConsumer();
    [free, core] = [randomUUID(), randomUUID()];
    await Promise.all([bed.setTier(free, 'SUPPLIER_FREE'), bed.setTier(core, 'CORE')]);
    for (const event of [...supplierJourney(free, START), ...supplierJourney(core, START)])
      await bed.publisher.publish(event);
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
  });
  afterAll(async () => {
    await bed?.close();
  });

  const call = {
    GetState: async (tenantId: string) => unaryCall(bed.client, 'GetState', {}, await bed.as(tenantId)),
    GetNextBestAction: async (tenantId: string) =>
      unaryCall(bed.client, 'GetNextBestAction', {}, await bed.as(tenantId)),
    GetCoverage: async (tenantId: string) => unaryCall(bed.client, 'GetCoverage', {}, await bed.as(tenantId)),
    GetHealthExplanation: async (tenantId: string) =>
      unaryCall(bed.client, 'GetHealthExplanation', {}, await bed.as(tenantId)),
  };

  it('tells a brand-new tenant to complete its profile, and why', async () => {
    const view = await call.GetNextBestAction(randomUUID());
    expect(view.nextBestAction).toMatchObject({
      milestone: { key: 'company_profile_completed', status: 'AVAILABLE' },
      unlocks: 4,
    });
    expect(view.nextBestAction?.becauseOf).toMatch(
      /^Complete your company profile\. It unlocks 4 steps right away/,
    );
    expect(view.nextUpgradePrompt).toBeNull();
  });

  it('carries the upgrade context entitlements gives for a capability the tier lacks', async () => {
    const [freeState, coreState] = await Promise.all([call.GetState(free), call.GetState(core)]);
    const trace = (s: typeof freeState) => s.milestones.find((m) => m.key === 'first_trace_recorded');
    expect(trace(freeState)?.upgradeContext).toMatchObject({
      capability: 'TRACEABILITY',
      frictionType: 'CAPABILITY',
      upgradeAvailable: true,
      currentTier: { code: 'SUPPLIER_FREE' },
      targetTier: { code: 'CORE' },
    });
    expect(trace(coreState)?.upgradeContext).toBeNull();
    expect(
      coreState.milestones.find((m) => m.key === 'network_review_completed')?.upgradeContext,
    ).toMatchObject({
      capability: 'NETWORK_ANALYTICS',
      targetTier: { code: 'ENTERPRISE' },
    });
  });

  it('moves the next best action along the journey and prompts an upgrade once exchanging', async () => {
    const view = await call.GetNextBestAction(free);
    expect(view.currentMaturityRung).toBe('EXCHANGING');
    expect(view.nextBestAction?.milestone?.key).not.toBe('company_profile_completed');
    expect(view.nextBestAction?.milestone?.requiredCapability ?? null).toBeNull();
    expect(view.nextUpgradePrompt).toMatchObject({ frictionType: 'CAPABILITY', upgradeAvailable: true });
    expect(view.available.every((m) => m.status === 'AVAILABLE' || m.status === 'IN_PROGRESS')).toBe(true);
    expect(view.locked.every((m) => m.status === 'LOCKED' && m.lockedReasons.length > 0)).toBe(true);
  });

  it('fills coverage from the events, capability by the tier', async () => {
    const { cells } = await call.GetCoverage(free);
    const cell = (key: string) => cells.find((c) => c.key === key);
    expect(cells).toHaveLength(10);
    expect(cell('PRODUCTS')).toMatchObject({ capable: true, achieved: true, count: 2, viewedCount: 1 });
    expect(cell('CONNECTIONS')).toMatchObject({ capable: true, achieved: true, count: 1, viewedCount: 1 });
    expect(cell('BULK_IMPORTS')).toMatchObject({ capable: true, achieved: true, count: 1 });
    expect(cell('TRACEABILITY')).toMatchObject({ capable: false, achieved: false, count: 0 });
    expect((await call.GetCoverage(core)).cells.find((c) => c.key === 'TRACEABILITY')?.capable).toBe(true);
  });

  it('explains the health score as points per component that add up to it', async () => {
    const [state, explanation] = await Promise.all([call.GetState(core), call.GetHealthExplanation(core)]);
    expect(explanation.healthScore).toBe(state.healthScore);
    expect(explanation.healthBand).toBe(state.healthBand);
    expect(explanation.components.map((c) => c.code)).toEqual([
      'JOURNEY_PROGRESS',
      'ENGAGEMENT',
      'NETWORK',
      'DATA_FRESHNESS',
      'RESPONSIVENESS',
    ]);
    const points = explanation.components.reduce((sum, c) => sum + c.points, 0);
    expect(Math.abs(points - (state.healthScore ?? 0))).toBeLessThanOrEqual(1);
    expect(explanation.summary).toMatch(/^Health \d+ ≈ Journey progress/);
  });

  it('remembers the band of the last recompute-on-write, for hysteresis', async () => {
    const stored = await aggregatesRepository(bed.db, createTenantWriteLock()).load(core);
    expect(stored.lastBand).not.toBeNull();
    expect(stored.tier).toMatchObject({ tierCode: 'CORE', pathProfile: 'SUPPLIER' });
  });

  it('refuses a risk-signal limit outside 1 to 200', async () => {
    const auth = await bed.as(core);
    for (const limit of [0, -1, 201, 10_000]) {
      const error = await remoteError(unaryCall(bed.client, 'ListRiskSignals', { limit }, auth));
      expect(error).toMatchObject({
        grpcStatus: GrpcStatus.INVALID_ARGUMENT,
        reason: 'INVALID_SIGNAL_LIMIT',
      });
    }
    expect(
      (await unaryCall(bed.client, 'ListRiskSignals', { limit: 1 }, auth)).signals.length,
    ).toBeLessThanOrEqual(1);
  });

  it('maps manual-completion failures to the statuses the spec names', async () => {
    const auth = await bed.as(core);
    const { version } = await call.GetState(core);
    const cases = [
      [{ key: 'no_such_milestone' }, GrpcStatus.NOT_FOUND, 'MILESTONE_NOT_FOUND'],
      [{ key: 'first_product_created' }, GrpcStatus.INVALID_ARGUMENT, 'MILESTONE_NOT_MANUAL'],
      [
        { key: 'import_mapping_approved', expectedVersion: version + 5 },
        GrpcStatus.ABORTED,
        'VERSION_CONFLICT',
      ],
      [{ key: 'network_review_completed' }, GrpcStatus.PERMISSION_DENIED, 'MILESTONE_CAPABILITY_REQUIRED'],
    ] as const;
    for (const [request, status, reason] of cases) {
      expect(
        await remoteError(unaryCall(bed.client, 'CompleteMilestone', { evidenceRef: '', ...request }, auth)),
      ).toMatchObject({ grpcStatus: status, reason });
    }
    const fresh = randomUUID();
    const unmet = await remoteError(
      unaryCall(bed.client, 'CompleteMilestone', { key: 'kickoff_call_held' }, await bed.as(fresh)),
    );
    expect(unmet).toMatchObject({
      grpcStatus: GrpcStatus.FAILED_PRECONDITION,
      reason: 'MILESTONE_DEPENDENCIES_UNMET',
    });
    expect(unmet.details).toMatchObject({ unmetDependencyKeys: ['company_profile_completed'] });
  });

  it('shows each tenant only its own journey: the token decides, there is no tenant to ask for', async () => {
    const stranger = randomUUID();
    const state = await call.GetState(stranger);
    expect(state.companyId).toBe(stranger);
    expect(state.appliedEventCount).toBe(0);
    expect((await call.GetCoverage(stranger)).cells.every((c) => c.count === 0)).toBe(true);
  });
});
