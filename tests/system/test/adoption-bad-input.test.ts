import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  adoptionApi,
  errorBody,
  event,
  type AdoptionApi,
  type PlanJson,
  type StateJson,
} from './support/adoption-api.js';
import { startSystem, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

const FUTURE = '2099-01-01T00:00:00Z';
const plan = (objectives: unknown, targetDate = FUTURE) => ({ title: 'Grow', targetDate, objectives });
const objective = { label: 'Start', milestoneKeys: ['first_product_created'], met: true };

describe('bad input to the adoption endpoints: spec statuses and structured bodies', () => {
  let system: System;
  let tenantId: string;
  let api: AdoptionApi;

  beforeAll(async () => {
    system = await startSystem('adoption_bad_input');
    tenantId = await system.createTenant('Careless Ltd');
    await system.setTier(tenantId, 'CORE');
    api = adoptionApi(system, `Bearer ${await system.token(tenantId)}`);
    await system.publish(event(tenantId, 'company.profile_completed', {}, new Date()));
    // Two writes: its tier.changed (setTier waits for it), then the profile event.
    await waitFor(async () => ((await api.data<StateJson>('/state')).version === 2 ? true : undefined));
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('answers an unknown milestone key with 404', async () => {
    const response = await api.post('/milestones/no_such_step/complete', {});
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody('MILESTONE_NOT_FOUND', { key: 'no_such_step' }));
  });

  it('answers completing an event-detected milestone by hand with 403', async () => {
    const response = await api.post('/milestones/first_product_created/complete', { evidenceRef: 'x' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(errorBody('MILESTONE_NOT_MANUAL'));
  });

  it('answers a non-integer or negative expectedVersion with 400', async () => {
    for (const expectedVersion of [1.5, '1', -1, null]) {
      const response = await api.post('/milestones/kickoff_call_held/complete', { expectedVersion });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody('VALIDATION_FAILED'));
    }
  });

  it('answers a stale expectedVersion with 409 and unmet dependencies with 403', async () => {
    const stale = await api.post('/milestones/kickoff_call_held/complete', { expectedVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual(errorBody('VERSION_CONFLICT'));
    const unmet = await api.post('/milestones/import_mapping_approved/complete', {});
    expect(unmet.status).toBe(403);
    expect(unmet.body).toEqual(
      errorBody('MILESTONE_DEPENDENCIES_UNMET', { unmetDependencyKeys: ['first_import_completed'] }),
    );
    const done = await api.post('/milestones/kickoff_call_held/complete', {
      expectedVersion: 2,
      evidenceRef: 'crm:42',
    });
    expect(done.status).toBe(200);
  });

  // Unknown keys are a lookup only adoption can make: 404, as completing an unknown milestone is.
  // The rest is in the document's schema, so the gateway refuses it as such.
  it('answers a plan with unknown milestone keys with 404, and no objectives or a blank label with 400', async () => {
    const unknown = await api.post(
      '/success-plan',
      plan([{ label: 'Fly', milestoneKeys: ['launch_rocket'] }]),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorBody('PLAN_UNKNOWN_MILESTONES', { unknownKeys: ['launch_rocket'] }));
    const none = await api.post('/success-plan', plan([]));
    expect(none.status).toBe(400);
    expect(none.body).toEqual(errorBody('VALIDATION_FAILED'));
    const blank = await api.post('/success-plan', plan([{ ...objective, label: '  ' }]));
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual(errorBody('VALIDATION_FAILED'));
    const missing = await api.post('/success-plan', { title: 'Grow', targetDate: FUTURE });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(errorBody('VALIDATION_FAILED'));
  });

  it('answers a targetDate that is not a future timestamp with 400, on create and on renew', async () => {
    for (const targetDate of ['next spring', '2025-13-45T00:00:00Z', '2099-01-01', '2001-01-01T00:00:00Z']) {
      const response = await api.post('/success-plan', plan([objective], targetDate));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody('VALIDATION_FAILED'));
    }
    const created = await api.post('/success-plan', plan([objective]));
    expect(created.status).toBe(201);
    const { id } = (created.body as { data: PlanJson }).data;
    const renew = await api.post('/success-plan/renew', { fromPlanId: id, targetDate: 'soon' });
    expect(renew.status).toBe(400);
    expect(renew.body).toEqual(errorBody('VALIDATION_FAILED'));
  });

  it('answers a second create with 409, and renewing a plan that is not active or not yours with 409 and 404', async () => {
    const active = (await api.data<PlanJson>('/success-plan')).id;
    const again = await api.post('/success-plan', plan([objective]));
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody('PLAN_ALREADY_ACTIVE', { activePlanId: active }));
    expect((await api.post('/success-plan/renew', { fromPlanId: active })).status).toBe(200);
    const twice = await api.post('/success-plan/renew', { fromPlanId: active });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(errorBody('PLAN_NOT_ACTIVE', { planId: active }));
    const notOurs = await api.post('/success-plan/renew', { fromPlanId: randomUUID() });
    expect(notOurs.status).toBe(404);
    expect(notOurs.body).toEqual(errorBody('PLAN_NOT_FOUND'));
    const notUuid = await api.post('/success-plan/renew', { fromPlanId: 'plan-1' });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body).toEqual(errorBody('VALIDATION_FAILED'));
  });

  it('answers a risk-signal limit of 0, negative, fractional, non-numeric or above 200 with 400', async () => {
    for (const limit of ['0', '-1', '1.5', 'ten', '201', '99999999999', '']) {
      const response = await api.get(`/risk-signals?limit=${encodeURIComponent(limit)}`);
      expect({ limit, status: response.status }).toEqual({ limit, status: 400 });
      expect(response.body).toEqual(errorBody('VALIDATION_FAILED'));
    }
    for (const limit of ['1', '50', '200'])
      expect((await api.get(`/risk-signals?limit=${limit}`)).status).toBe(200);
  });

  it('lets only an OWNER or ADMIN create or renew a plan (403)', async () => {
    const member = adoptionApi(system, `Bearer ${await system.token(tenantId, 'MEMBER')}`);
    const create = await member.post('/success-plan', plan([objective]));
    expect(create.status).toBe(403);
    expect(create.body).toEqual(errorBody('ROLE_FORBIDDEN'));
    const active = (await api.data<PlanJson>('/success-plan')).id;
    const renew = await member.post('/success-plan/renew', { fromPlanId: active });
    expect(renew.status).toBe(403);
    expect(renew.body).toEqual(errorBody('ROLE_FORBIDDEN'));
  });

  it('answers malformed JSON, unknown fields and a missing token as the spec says', async () => {
    const headers = {
      authorization: `Bearer ${await system.token(tenantId)}`,
      'content-type': 'application/json',
    };
    const malformed = await system.http('POST', '/api/v1/tenant/adoption/success-plan', {
      headers,
      body: '{"title":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(errorBody('INVALID_JSON'));
    const extra = await api.post('/success-plan', { ...plan([objective]), owner: 'someone-else' });
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual(errorBody('VALIDATION_FAILED'));
    const anonymous = await system.http('GET', '/api/v1/tenant/adoption/coverage');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  });
});
