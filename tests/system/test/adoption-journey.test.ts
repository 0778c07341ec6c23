import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProductEvent } from '@tap/contracts';
import {
  adoptionApi,
  event,
  manualClock,
  type AdoptionApi,
  type SignalJson,
  type StateJson,
} from './support/adoption-api.js';
import { startSystem, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PARTNER_1 = '5b7a2d0e-5f3c-4f1e-9c55-1c1d2e3f4a01';
const PARTNER_2 = '5b7a2d0e-5f3c-4f1e-9c55-1c1d2e3f4a02';

interface NextBestActionJson {
  nextBestAction: { key: string; unlocks: number; becauseOf: string } | null;
  currentMaturityRung: string;
}
interface CellJson {
  key: string;
  count: number;
  viewedCount: number;
  achieved: boolean;
  capable: boolean;
}

describe('a tenant journey through the gateway', () => {
  const clock = manualClock(new Date('2025-01-06T08:00:00.000Z'));
  let system: System;
  let tenantId: string;
  let api: AdoptionApi;

  beforeAll(async () => {
    // The drift watch runs on its own schedule (every 50 ms) against the test's clock.
    system = await startSystem('journey', { now: clock.now, driftWatchIntervalMs: 50 });
    tenantId = await system.createTenant('Journey Foods');
    await system.setTier(tenantId, 'CORE');
    api = adoptionApi(system, `Bearer ${await system.token(tenantId)}`);
  });
  afterAll(async () => {
    await system?.stop();
  });

  const state = () => api.data<StateJson>('/state');
  const status = async (key: string) => (await state()).milestones.find((m) => m.key === key)?.status;
  const nextKey = async () => (await api.data<NextBestActionJson>('/next-best-action')).nextBestAction?.key;
  const cell = async (key: string) =>
    (await api.data<{ cells: CellJson[] }>('/coverage')).cells.find((c) => c.key === key);
  const signals = async () => (await api.data<{ signals: SignalJson[] }>('/risk-signals')).signals;
  /** Publishes events dated now on the test clock and waits until `done` holds. */
  async function happen(events: ProductEvent[], done: () => Promise<boolean>): Promise<void> {
    for (const e of events) await system.publish(e);
    await waitFor(async () => ((await done()) ? true : undefined));
  }

  it('starts onboarded with every milestone open or locked and the profile as next step', async () => {
    const first = await state();
    expect(first).toMatchObject({
      companyId: tenantId,
      currentMaturityRung: 'ONBOARDED',
      healthScore: null,
      healthBand: 'ONBOARDING',
      // The tenant's one write so far: its tier.changed (tiers arrive by event).
      version: 1,
    });
    expect(first.milestones.some((m) => m.status === 'DONE')).toBe(false);
    expect(await nextKey()).toBe('company_profile_completed');
    expect((await cell('PRODUCTS'))?.achieved).toBe(false);
  });

  it('turns milestones DONE from product events and moves the next best action', async () => {
    const now = clock.now();
    await happen(
      [
        event(tenantId, 'company.profile_completed', {}, now),
        event(tenantId, 'product.created', { productId: 'p-1' }, now),
      ],
      async () => (await status('first_product_created')) === 'DONE',
    );
    expect(await status('company_profile_completed')).toBe('DONE');
    expect(await nextKey()).not.toBe('company_profile_completed');
    expect(await cell('PRODUCTS')).toMatchObject({ achieved: true, count: 1, viewedCount: 0 });
  });

  it('climbs the rungs as the tenant connects, exchanges and traces', async () => {
    clock.advance(HOUR);
    const invitedAt = clock.now();
    clock.advance(HOUR);
    const now = clock.now();
    await happen(
      [
        event(tenantId, 'connection.invited', { connectionId: 'c-1' }, invitedAt, {
          partnerTenantId: PARTNER_1,
        }),
        event(tenantId, 'connection.accepted', { connectionId: 'c-1' }, now, { partnerTenantId: PARTNER_1 }),
      ],
      async () => (await state()).currentMaturityRung === 'CONNECTED',
    );
    await happen(
      [
        event(tenantId, 'product.viewed', { productId: 'p-1', connectionId: 'c-1' }, now, {
          viewerTenantId: PARTNER_1,
        }),
      ],
      async () => (await state()).currentMaturityRung === 'EXCHANGING',
    );
    expect(await status('first_data_exchange')).toBe('DONE');
    expect(await cell('CONNECTIONS')).toMatchObject({ count: 1, viewedCount: 1 });
    await happen(
      [
        event(tenantId, 'product_version.published', { productId: 'p-1', versionId: 'v-1' }, now),
        event(tenantId, 'trace.recorded', { productId: 'p-1' }, now),
      ],
      async () => (await state()).currentMaturityRung === 'TRACED',
    );
    expect(await cell('TRACEABILITY')).toMatchObject({
      capable: true,
      achieved: true,
      count: 1,
      viewedCount: 1,
    });
    const health = await state();
    expect(health.healthScore).toEqual(expect.any(Number));
    const explained = await api.data<{ healthScore: number; summary: string }>('/health-explanation');
    expect(explained.healthScore).toBe(health.healthScore);
  });

  it('opens a risk signal, escalates it on the drift watch schedule, and resolves it', async () => {
    // The version counts writes, and the batched consumer writes a tenant once per batch.
    const before = (await state()).version;
    await happen(
      [
        event(tenantId, 'connection.invited', { connectionId: 'c-2' }, clock.now(), {
          partnerTenantId: PARTNER_2,
        }),
      ],
      async () => (await state()).version > before,
    );
    expect(await signals()).toEqual([]);
    const ladder = [
      { advance: 3 * DAY + HOUR, resolution: 'OPEN', escalatedToHuman: false },
      { advance: DAY, resolution: 'AUTO_NUDGED', escalatedToHuman: false },
      { advance: 6 * DAY, resolution: 'REO_PROMPTED', escalatedToHuman: false },
      { advance: 7 * DAY, resolution: 'ESCALATED', escalatedToHuman: true },
    ];
    for (const step of ladder) {
      clock.advance(step.advance);
      const [signal] = await waitFor(async () => {
        const open = await signals();
        return open[0]?.resolution === step.resolution ? open : undefined;
      });
      expect(signal).toMatchObject({
        kind: 'INVITATION_UNACCEPTED',
        subjectRef: { connectionId: 'c-2' },
        resolution: step.resolution,
        escalatedToHuman: step.escalatedToHuman,
        resolvedAt: null,
      });
    }
    await happen(
      [
        event(tenantId, 'connection.accepted', { connectionId: 'c-2' }, clock.now(), {
          partnerTenantId: PARTNER_2,
        }),
      ],
      async () => (await signals()).length === 0,
    );
  });
});
