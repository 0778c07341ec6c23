import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  adoptionApi,
  errorBody,
  event,
  type AdoptionApi,
  type PlanJson,
  type SignalJson,
  type StateJson,
} from './support/adoption-api.js';
import { startSystem, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

const objectives = [{ label: 'First product', milestoneKeys: ['first_product_created'] }];
const plan = (title: string) => ({ title, targetDate: '2099-06-01T00:00:00Z', objectives });

describe('tenant isolation and the one-ACTIVE-plan rule through the gateway', () => {
  let system: System;
  let a: { id: string; api: AdoptionApi };
  let b: { id: string; api: AdoptionApi };

  beforeAll(async () => {
    system = await startSystem('adoption_isolation');
    const tenant = async (name: string) => {
      const id = await system.createTenant(name);
      await system.setTier(id, 'CORE');
      return { id, api: adoptionApi(system, `Bearer ${await system.token(id)}`) };
    };
    [a, b] = [await tenant('Alpha Parts'), await tenant('Beta Fabrics')];
    await system.publish(event(a.id, 'company.profile_completed', {}, new Date()));
    await system.publish(event(a.id, 'product.created', { productId: 'p-a' }, new Date()));
    // Both events applied (one write or two: the batched consumer writes a tenant once per batch).
    const productDone = (state: StateJson) =>
      state.milestones.find((m) => m.key === 'first_product_created')?.status === 'DONE';
    await waitFor(async () => (productDone(await a.api.data<StateJson>('/state')) ? true : undefined));
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('creates exactly one ACTIVE plan out of ten concurrent requests: one 201, nine 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => a.api.post('/success-plan', plan(`Plan ${i}`))),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    const created = (responses.find((r) => r.status === 201)!.body as { data: PlanJson }).data;
    expect(created).toMatchObject({
      status: 'ACTIVE',
      renewedFromId: null,
      objectives: [{ label: 'First product', met: true }],
    });
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(refused.body).toEqual(errorBody('PLAN_ALREADY_ACTIVE', { activePlanId: created.id }));
    }
    expect((await a.api.data<PlanJson>('/success-plan')).id).toBe(created.id);
  });

  it("never shows one tenant another's state, coverage, signals or plan", async () => {
    const state = await b.api.data<StateJson>('/state');
    expect(state.companyId).toBe(b.id);
    // Its one write so far: the tier.changed of its setTier (tiers arrive by event).
    expect(state.version).toBe(1);
    expect(state.milestones.every((m) => m.status !== 'DONE')).toBe(true);
    const coverage = await b.api.data<{ cells: { count: number }[] }>('/coverage');
    expect(coverage.cells.every((c) => c.count === 0)).toBe(true);
    expect(await b.api.data<{ signals: SignalJson[] }>('/risk-signals')).toEqual({ signals: [] });
    expect(await b.api.data<PlanJson | null>('/success-plan')).toBeNull();
    expect((await b.api.data<{ companyId: string }>('/next-best-action')).companyId).toBe(b.id);
  });

  it("never lets one tenant change another's state or plan", async () => {
    const aPlan = await a.api.data<PlanJson>('/success-plan');
    const renew = await b.api.post('/success-plan/renew', { fromPlanId: aPlan.id });
    expect(renew.status).toBe(404);
    expect(renew.body).toEqual(errorBody('PLAN_NOT_FOUND'));
    // A body cannot name a tenant: unknown fields are refused, the token decides.
    const smuggled = await b.api.post('/milestones/kickoff_call_held/complete', { companyId: a.id });
    expect(smuggled.status).toBe(400);
    const before = await a.api.data<StateJson>('/state');
    await system.publish(event(b.id, 'company.profile_completed', {}, new Date()));
    await waitFor(async () => ((await b.api.data<StateJson>('/state')).version === 2 ? true : undefined));
    expect((await b.api.post('/milestones/kickoff_call_held/complete', {})).status).toBe(200);
    const after = await a.api.data<StateJson>('/state');
    expect(after.version).toBe(before.version);
    expect(after.milestones.find((m) => m.key === 'kickoff_call_held')?.status).not.toBe('DONE');
    expect((await a.api.data<PlanJson>('/success-plan')).id).toBe(aPlan.id);
  });
});
