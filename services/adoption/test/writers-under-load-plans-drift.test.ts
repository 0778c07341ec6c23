import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { unaryCall } from '@tap/grpc-kit';
import { remoteError } from '@tap/service-testkit';
import { waitFor } from '@tap/testkit';
import type { DriftPassReport } from '../src/operations/run-drift-pass.js';
import { PARTNER_1, productEvent } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = new Date('2025-03-01T00:00:00.000Z');
const BACKLOG = 3_000;
// A bound for a loaded machine, not a budget (see writers-under-load.test.ts).
const CALL_DEADLINE_MS = 20_000;

const plan = {
  title: 'Get connected',
  targetDate: '2025-09-01T00:00:00Z',
  objectives: [{ label: 'Set up', milestoneKeys: ['company_profile_completed', 'first_product_created'] }],
};

/**
 * Plan writes and drift-watch passes while thousands of the tenant's events are applied by the
 * batched consumer (issue #13, "Bad input and faults"): none may fail because the consumer keeps
 * writing the tenant. The interface allows 409 only for what the caller asked for: a second
 * create while a plan is ACTIVE.
 */
describe('plan writes and drift passes while thousands of the tenant’s events are applied', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('writers_plans');
    bed.clock.set(NOW);
    await bed.startConsumer();
  });
  afterAll(async () => {
    await bed?.close();
  });

  const settled = () => consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);

  /** Publishes `count` product.created events of the tenant, 100 at a time. */
  async function publishBacklog(tenantId: string, count: number, from: number, at: Date): Promise<void> {
    for (let i = from; i < from + count; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, from + count - i) }, (_, j) =>
          bed.publisher.publish(
            productEvent(tenantId, 'product.created', { productId: `p-${(i + j) % 50}` }, at),
          ),
        ),
      );
    }
  }

  /** A CORE tenant whose first event is applied (so adoption has seen its tier). */
  async function busyTenant(first: ReturnType<typeof productEvent> | null, tenantId = randomUUID()) {
    await bed.setTier(tenantId, 'CORE');
    await bed.publisher.publish(first ?? productEvent(tenantId, 'company.profile_completed', {}, NOW));
    const auth = { ...(await bed.as(tenantId)), deadlineMs: CALL_DEADLINE_MS };
    await waitFor(
      'the first event to be applied',
      async () => (await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount >= 1,
      { timeoutMs: 60_000 },
    );
    return { tenantId, auth };
  }

  it('creates and renews a plan again and again, and only a second create is a 409', async () => {
    const { tenantId, auth } = await busyTenant(null);
    await publishBacklog(tenantId, BACKLOG / 2, 0, NOW);
    // The rest of the backlog is published while the plan is written: events are certainly flowing.
    const writes = (async () => {
      let active = await unaryCall(bed.client, 'CreateSuccessPlan', plan, auth);
      const second = await remoteError(unaryCall(bed.client, 'CreateSuccessPlan', plan, auth));
      expect(second).toMatchObject({ reason: 'PLAN_ALREADY_ACTIVE' });
      for (let round = 0; round < 5; round += 1) {
        await unaryCall(bed.client, 'RenewSuccessPlan', { fromPlanId: active.id }, auth);
        const { plan: renewed } = await unaryCall(bed.client, 'GetSuccessPlan', {}, auth);
        expect(renewed?.renewedFromId).toBe(active.id);
        active = renewed!;
      }
      return active;
    })();
    const [last] = await Promise.all([writes, publishBacklog(tenantId, BACKLOG / 2, BACKLOG / 2, NOW)]);
    await settled();
    const state = await unaryCall(bed.client, 'GetState', {}, auth);
    expect(state.appliedEventCount).toBe(BACKLOG + 1);
    const { plan: active } = await unaryCall(bed.client, 'GetSuccessPlan', {}, auth);
    expect(active).toMatchObject({ id: last.id, status: 'ACTIVE' });
  }, 240_000);

  it('runs drift passes that never fail and move the ladder on time while the consumer writes the tenant', async () => {
    // An invitation never accepted: a risk detected three days later, climbing on time alone.
    const invitedAt = NOW;
    const tenantId = randomUUID();
    const { auth } = await busyTenant(
      productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, invitedAt, {
        partnerTenantId: PARTNER_1,
      }),
      tenantId,
    );
    const detectedAt = invitedAt.getTime() + 3 * DAY;
    const steps = [
      { after: HOUR, resolution: 'OPEN' },
      { after: DAY + HOUR, resolution: 'AUTO_NUDGED' },
      { after: 7 * DAY + HOUR, resolution: 'REO_PROMPTED' },
      { after: 14 * DAY + HOUR, resolution: 'ESCALATED' },
    ];
    const reports: DriftPassReport[] = [];
    await publishBacklog(tenantId, BACKLOG / 2, 0, new Date(detectedAt));
    const passes = (async () => {
      for (const step of steps) {
        bed.clock.set(new Date(detectedAt + step.after));
        // The step's due time was scheduled by an earlier write and a consumer write only ever
        // moves it earlier, so the pass finds this tenant due and claims it.
        const report = await bed.app.runDriftWatch();
        reports.push(report);
        expect(report).toMatchObject({ failed: 0 });
        expect(report.claimed).toBeGreaterThanOrEqual(1);
        await waitFor(
          `the risk to be ${step.resolution}`,
          async () => {
            const { signals } = await unaryCall(bed.client, 'ListRiskSignals', {}, auth);
            if (signals[0]?.resolution === step.resolution) return true;
            // As the scheduled job does: a pass whose record lost to a consumer write (its fence
            // moved) leaves the tenant due, and the next pass records it.
            const again = await bed.app.runDriftWatch();
            reports.push(again);
            expect(again).toMatchObject({ failed: 0 });
            return false;
          },
          { timeoutMs: 60_000, intervalMs: 200 },
        );
      }
    })();
    await Promise.all([passes, publishBacklog(tenantId, BACKLOG / 2, BACKLOG / 2, new Date(detectedAt))]);
    await settled();
    expect(reports.every((r) => r.failed === 0)).toBe(true);
    const state = await unaryCall(bed.client, 'GetState', {}, auth);
    expect(state.appliedEventCount).toBe(BACKLOG + 1);
    const { signals } = await unaryCall(bed.client, 'ListRiskSignals', {}, auth);
    expect(signals).toEqual([
      expect.objectContaining({
        kind: 'INVITATION_UNACCEPTED',
        resolution: 'ESCALATED',
        escalatedToHuman: true,
      }),
    ]);
  }, 300_000);
});
