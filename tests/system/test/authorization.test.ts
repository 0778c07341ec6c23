import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_TABLE, type RouteKey } from '@tap/gateway';
import { openIdentityFixtures, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';

const insufficientScope = { error: 'insufficient_scope', error_description: expect.any(String) };
const roleForbidden = { success: false, error: expect.objectContaining({ code: 'ROLE_FORBIDDEN' }) };

/** A concrete URL for a table key (`:param`s filled with plausible values). */
function urlOf(key: RouteKey): { method: string; url: string } {
  const [method, path] = key.split(' ') as [string, string];
  const filled = path
    .replace(':key', 'kickoff_call_held')
    .replace(':clientId', 'no-such-client')
    .replace(':id', 'no-such-request')
    .replace(':provider', 'corp');
  return { method, url: `/api/v1${filled}` };
}

const tokenRoutes = (Object.keys(ROUTE_TABLE) as RouteKey[]).filter(
  (key) => ROUTE_TABLE[key].access === 'token',
);
const managerRoutes = tokenRoutes.filter((key) => {
  const entry = ROUTE_TABLE[key];
  return entry.access === 'token' && (entry.auth as { roles?: unknown }).roles !== undefined;
});
const openToClients = tokenRoutes.filter((key) => {
  const entry = ROUTE_TABLE[key];
  return entry.access === 'token' && Object.keys(entry.auth).length === 0;
});

describe('who may call what (docs/security.md, endpoint table)', () => {
  let system: System;
  let fx: IdentityFixtures;
  let tenantId: string;
  let admin: string;
  let member: string;
  let dppClient: { clientId: string; clientSecret: string; token: string };

  beforeAll(async () => {
    system = await startSystem('authz', {
      // SSO routes are registered only with a provider; discovery is lazy, so none is contacted.
      ssoProviders: [{ key: 'corp', issuer: 'http://127.0.0.1:9/', clientId: 'c', clientSecret: 's' }],
    });
    fx = await openIdentityFixtures(system);
    const owner = await fx.tenantWithOwner('Authz Foods');
    tenantId = owner.tenantId;
    await system.setTier(tenantId, 'CORE');
    admin = (await fx.signIn(await fx.addUser(tenantId, 'ADMIN'))).accessToken;
    member = (await fx.signIn(await fx.addUser(tenantId, 'MEMBER'))).accessToken;
    const created = await fx.oauthClient(tenantId, ['dpp:read']);
    dppClient = { ...created, token: await fx.clientToken(created.clientId, created.clientSecret) };
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const call = (key: RouteKey, token?: string): Promise<HttpResponse> => {
    const { method, url } = urlOf(key);
    return system.http(method, url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('has no stale entries: the gateway serves every route of the table (and would not build with an undecided one)', () => {
    for (const key of Object.keys(ROUTE_TABLE) as RouteKey[]) {
      const [method, path] = key.split(' ') as [string, string];
      if (path === '/openapi.json') continue;
      expect({
        key,
        served: system.gateway.hasRoute({ method, url: `/api/v1${path}` }),
      }).toEqual({
        key,
        served: true,
      });
    }
  });

  it('refuses every token route without a token: 401 invalid_token', async () => {
    for (const key of tokenRoutes) {
      const response = await call(key);
      expect({ key, status: response.status, body: response.body }).toEqual({
        key,
        status: 401,
        body: { error: 'invalid_token', error_description: expect.any(String) },
      });
    }
  });

  it('refuses a dpp:read client token on every OWNER/ADMIN route: 403 insufficient_scope', async () => {
    for (const key of managerRoutes) {
      const response = await call(key, dppClient.token);
      expect({ key, status: response.status, body: response.body }).toEqual({
        key,
        status: 403,
        body: insufficientScope,
      });
    }
  });

  it('refuses a MEMBER on every OWNER/ADMIN route: 403 ROLE_FORBIDDEN', async () => {
    for (const key of managerRoutes) {
      const response = await call(key, member);
      expect({ key, status: response.status, body: response.body }).toEqual({
        key,
        status: 403,
        body: roleForbidden,
      });
    }
  });

  it("lets a client token through to the tenant's own reads", async () => {
    for (const key of openToClients) {
      const response = await call(key, dppClient.token);
      expect({ key, refused: [401, 403].includes(response.status) }).toEqual({ key, refused: false });
    }
    expect((await call('GET /tenant/adoption/state', dppClient.token)).status).toBe(200);
  });

  it("a dpp:read token cannot rotate its own client's secret; an ADMIN manages clients end to end", async () => {
    const own = `/api/v1/oauth/clients/${dppClient.clientId}/rotate`;
    const refused = await system.http('POST', own, { headers: bearer(dppClient.token) });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(insufficientScope);
    expect((await system.http('POST', own, { headers: bearer(member) })).body).toEqual(roleForbidden);
    // The integration keeps working: its secret was not rotated.
    expect(await fx.clientToken(dppClient.clientId, dppClient.clientSecret)).toEqual(expect.any(String));

    const created = await system.http('POST', '/api/v1/oauth/clients', {
      headers: bearer(admin),
      body: { name: 'ERP', scopes: ['products:read'] },
    });
    expect(created.status).toBe(201);
    const { clientId } = (created.body as { data: { clientId: string } }).data;
    expect((await system.http('GET', '/api/v1/oauth/clients', { headers: bearer(admin) })).status).toBe(200);
    const rotated = await system.http('POST', `/api/v1/oauth/clients/${clientId}/rotate`, {
      headers: bearer(admin),
    });
    expect(rotated.status).toBe(200);
    const deleted = await system.http('DELETE', `/api/v1/oauth/clients/${clientId}`, {
      headers: bearer(admin),
    });
    expect(deleted.status).toBe(204);
  });

  it('milestones and plans: a client token or a MEMBER is refused, an ADMIN gets through', async () => {
    const complete = '/api/v1/tenant/adoption/milestones/kickoff_call_held/complete';
    const asClient = await system.http('POST', complete, { headers: bearer(dppClient.token) });
    expect(asClient.status).toBe(403);
    expect(asClient.body).toEqual(insufficientScope);
    expect((await system.http('POST', complete, { headers: bearer(member) })).body).toEqual(roleForbidden);
    // Past authorization, the domain answers: the kickoff needs the company profile first.
    const asAdmin = await system.http('POST', complete, { headers: bearer(admin) });
    expect(asAdmin.body).toMatchObject({ error: { code: 'MILESTONE_DEPENDENCIES_UNMET' } });

    const plan = {
      title: 'Go live',
      targetDate: '2031-01-01T00:00:00.000Z',
      objectives: [{ label: 'Profile', milestoneKeys: ['company_profile_completed'], met: false }],
    };
    const path = '/api/v1/tenant/adoption/success-plan';
    expect((await system.http('POST', path, { headers: bearer(dppClient.token), body: plan })).status).toBe(
      403,
    );
    expect((await system.http('POST', path, { headers: bearer(member), body: plan })).status).toBe(403);
    expect((await system.http('POST', path, { headers: bearer(admin), body: plan })).status).toBe(201);
  });
});
