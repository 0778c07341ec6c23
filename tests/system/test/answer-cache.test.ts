import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readSample, renderMetrics } from '@tap/telemetry';
import { adoptionApi, event, type AdoptionApi, type StateJson } from './support/adoption-api.js';
import { startSystem, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

/**
 * The gateway's answer cache (docs/adoption-model.md, "Read models"), with a reuse time far longer
 * than any wait here: whatever a read shows after a change, it shows because a change notice or a
 * write relayed by the gateway ended the reuse, never because the reuse ran out.
 */
describe("the gateway's answers of adoption's and entitlements' reads", () => {
  let system: System;
  let tenantId: string;
  let api: AdoptionApi;
  let other: AdoptionApi;
  let otherId: string;

  beforeAll(async () => {
    system = await startSystem('answers', { answerReuseMs: 600_000 });
    tenantId = await system.createTenant('Answer Foods');
    otherId = await system.createTenant('Other Foods');
    await system.setTier(tenantId, 'CORE');
    await system.setTier(otherId, 'CORE');
    api = adoptionApi(system, `Bearer ${await system.token(tenantId)}`);
    other = adoptionApi(system, `Bearer ${await system.token(otherId)}`);
  });
  afterAll(async () => {
    await system?.stop();
  });

  const status = async (key: string) =>
    (await api.data<StateJson>('/state')).milestones.find((m) => m.key === key)?.status;

  it("shows a change the consumer applied, told by adoption's change notice", async () => {
    expect(await status('company_profile_completed')).not.toBe('DONE');
    await system.publish(event(tenantId, 'company.profile_completed', {}, new Date()));
    await waitFor(async () => ((await status('company_profile_completed')) === 'DONE' ? true : undefined));
  });

  it('shows a write relayed by this gateway to the very next read', async () => {
    expect(await status('kickoff_call_held')).not.toBe('DONE');
    const done = await api.post('/milestones/kickoff_call_held/complete', {});
    expect(done.status).toBe(200);
    expect(await status('kickoff_call_held')).toBe('DONE');
  });

  it('never gives a tenant another tenant’s answer', async () => {
    const mine = await api.data<StateJson>('/state');
    const theirs = await other.data<StateJson>('/state');
    expect(mine.companyId).toBe(tenantId);
    expect(theirs.companyId).toBe(otherId);
    const milestone = (s: StateJson, key: string) => s.milestones.find((m) => m.key === key)?.status;
    expect(milestone(theirs, 'kickoff_call_held')).not.toBe('DONE');
  });

  it("shows a tier change in entitlements' answers, told by entitlements' change notice", async () => {
    const path = '/api/v1/entitlements/upgrade-context?capability=API_ACCESS';
    const headers = { authorization: `Bearer ${await system.token(otherId)}` };
    const tierOf = async () => {
      const response = await system.http('GET', path, { headers });
      expect(response.status).toBe(200);
      return (response.body as { data: { currentTier: { code: string } } }).data.currentTier.code;
    };
    expect(await tierOf()).toBe('CORE');
    await system.setTier(otherId, 'ENTERPRISE');
    await waitFor(async () => ((await tierOf()) === 'ENTERPRISE' ? true : undefined));
  });

  it('answers a kept read without asking adoption, and asks for anything not kept', async () => {
    const kept = await api.get('/state');
    expect(kept.status).toBe(200);
    // No adoption from here on (this test is the file's last).
    await system.adoption.grpc.shutdown(500);
    const lookups = async (route: string, outcome: string) =>
      readSample((await renderMetrics()).body, 'gateway_answer_cache_lookups_total', { route, outcome });
    const state = '/api/v1/tenant/adoption/state';
    const coverage = '/api/v1/tenant/adoption/coverage';
    const before = [await lookups(state, 'hit'), await lookups(coverage, 'miss')];
    const again = await api.get('/state');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(kept.body);
    expect((await api.get('/coverage')).status).toBe(503);
    // Counted as the operator sees them (docs/operations.md): one hit, one miss.
    expect([await lookups(state, 'hit'), await lookups(coverage, 'miss')]).toEqual([
      (before[0] ?? 0) + 1,
      (before[1] ?? 0) + 1,
    ]);
  });
});
