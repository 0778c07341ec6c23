import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FORM_HEADERS, openIdentityFixtures, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, SYSTEM_ORIGIN, type HttpResponse, type System } from '../support/system.js';

/*
 * Hostile request bodies: too large, not JSON, the wrong media type, deeply nested, huge
 * strings, prototype-pollution keys. Each is a 4xx in the spec's shape for its surface
 * (general, OAuth-style on the token endpoints), never a 500, and the gateway keeps serving.
 */

const LIMIT = 64 * 1024; // startSystem's body limit
const general = (status: number, response: HttpResponse) => {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({
    success: false,
    error: { code: expect.any(String), message: expect.any(String) },
  });
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(js|ts):\d+/);
};
const oauth = (status: number, response: HttpResponse) => {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
};

describe('hostile request bodies', () => {
  let system: System;
  let fx: IdentityFixtures;
  let bearer: Record<string, string>;

  beforeAll(async () => {
    system = await startSystem('hostile_bodies', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    const owner = await fx.tenantWithOwner('Body Shop');
    await system.setTier(owner.tenantId, 'CORE');
    bearer = { authorization: `Bearer ${(await fx.signIn(owner)).accessToken}` };
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const json = { 'content-type': 'application/json' };
  const can = (body: string, headers: Record<string, string> = json) =>
    system.http('POST', '/api/v1/entitlements/can', { headers: { ...bearer, ...headers }, body });
  const login = (body: string, headers: Record<string, string> = json) =>
    system.http('POST', '/api/v1/auth/login', {
      headers: { 'x-forwarded-for': '198.18.0.1', ...headers },
      body,
    });

  it('answers a body over the limit with 413 on the API, the token endpoints and /auth/v2', async () => {
    const big = JSON.stringify({ action: 'BULK_UPLOAD', resourceCount: 1, pad: 'x'.repeat(LIMIT) });
    general(413, await can(big));
    oauth(413, await login(JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(LIMIT) })));
    const token = await system.http('POST', '/api/v1/oauth/token', {
      headers: FORM_HEADERS,
      body: `grant_type=client_credentials&client_id=${'c'.repeat(LIMIT)}`,
    });
    oauth(413, token);
    general(
      413,
      await system.http('POST', '/api/v1/auth/v2/login', {
        headers: { ...json, origin: SYSTEM_ORIGIN },
        body: JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(LIMIT) }),
      }),
    );
  });

  it('answers malformed JSON with 400 (general body on the API, invalid_request on login)', async () => {
    for (const body of [
      '{',
      '{"action":',
      '{"action": "BULK_UPLOAD",}',
      "{'a':1}",
      'nul',
      '\u0000',
      '[1,2',
      '"\\ud800"x',
    ]) {
      general(400, await can(body));
      oauth(400, await login(body));
    }
  });

  it('answers JSON that is valid but not an object with 400', async () => {
    for (const body of ['null', '[]', '"text"', '42', 'true']) {
      general(400, await can(body));
      oauth(400, await login(body));
    }
  });

  it('answers the wrong media type with 415 on the API and 400 invalid_request on the token endpoints', async () => {
    const body = JSON.stringify({ action: 'BULK_UPLOAD', resourceCount: 1 });
    for (const contentType of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      'application/jsonp',
    ]) {
      general(415, await can(body, { 'content-type': contentType }));
    }
    oauth(
      400,
      await login(JSON.stringify({ email: 'a@b.example', password: 'p' }), { 'content-type': 'text/plain' }),
    );
    oauth(
      400,
      await system.http('POST', '/api/v1/oauth/token', {
        headers: json,
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' }),
      }),
    );
  });

  it('answers deeply nested JSON with 400 and keeps serving', async () => {
    const depth = 10_000;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const arrays = `{"action":${'['.repeat(depth * 2)}${']'.repeat(depth * 2)},"resourceCount":1}`;
    general(400, await can(objects));
    general(400, await can(arrays));
    oauth(400, await login(`{"email":${'['.repeat(depth)}${']'.repeat(depth)},"password":"p"}`));
    expect((await can(JSON.stringify({ action: 'BULK_UPLOAD', resourceCount: 1 }))).status).toBe(200);
  });

  it('answers huge strings in bounded fields with 400, not a downstream error', async () => {
    const huge = 'x'.repeat(LIMIT - 200);
    general(400, await can(JSON.stringify({ action: huge, resourceCount: 1 })));
    oauth(400, await login(JSON.stringify({ email: `${huge}@example.com`, password: 'p' })));
    general(
      400,
      await system.http('GET', `/api/v1/entitlements/upgrade-context?capability=${'x'.repeat(4_000)}`, {
        headers: bearer,
      }),
    );
    const milestone = await system.http(
      'POST',
      `/api/v1/tenant/adoption/milestones/${'k'.repeat(2_000)}/complete`,
      {
        headers: bearer,
      },
    );
    general(400, milestone);
    // Invitations and sessions (issue #22): every bounded field, in the path and in the body.
    general(
      400,
      await system.http('POST', '/api/v1/tenant/invitations', {
        headers: { ...bearer, ...json },
        body: JSON.stringify({ email: `${huge}@example.com`, role: 'MEMBER' }),
      }),
    );
    for (const path of [
      `/api/v1/tenant/invitations/${'i'.repeat(2_000)}`,
      `/api/v1/auth/sessions/${'s'.repeat(2_000)}`,
      `/api/v1/tenant/members/${'u'.repeat(2_000)}/sessions`,
    ])
      general(400, await system.http('DELETE', path, { headers: bearer }));
    for (const body of [
      { token: huge },
      { token: 'inv_a.b', firstName: huge },
      { token: 'inv_a.b', password: huge },
    ])
      general(
        400,
        await system.http('POST', '/api/v1/auth/v2/invitations/accept', {
          headers: { ...json, origin: SYSTEM_ORIGIN },
          body: JSON.stringify(body),
        }),
      );
  });

  it('refuses prototype-pollution keys and leaves Object.prototype alone', async () => {
    const bodies = [
      '{"__proto__":{"polluted":true},"action":"BULK_UPLOAD","resourceCount":1}',
      '{"constructor":{"prototype":{"polluted":true}},"action":"BULK_UPLOAD","resourceCount":1}',
      '{"action":"BULK_UPLOAD","resourceCount":1,"nested":{"__proto__":{"polluted":true}}}',
    ];
    for (const body of bodies) {
      general(400, await can(body));
      oauth(
        400,
        await login(
          body.replace('"action":"BULK_UPLOAD","resourceCount":1', '"email":"a@b.example","password":"p"'),
        ),
      );
    }
    // The gateway runs in this process: a polluted prototype would show here.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const plan = await system.http('POST', '/api/v1/tenant/adoption/success-plan', {
      headers: { ...bearer, ...json },
      body: '{"title":"t","targetDate":"2099-01-01T00:00:00Z","objectives":[{"label":"l","milestoneKeys":[],"__proto__":{"met":true}}]}',
    });
    general(400, plan);
  });
});
