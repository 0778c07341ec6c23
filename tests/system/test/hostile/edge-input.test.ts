import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger, installTestTracing, type TestTracing } from '@tap/telemetry';
import { Browser, CookieJar } from '../support/cookie-jar.js';
import {
  FORM_HEADERS,
  form,
  openIdentityFixtures,
  type IdentityFixtures,
} from '../support/identity-fixtures.js';
import { locationOf, ssoStart } from '../support/sso-sign-in.js';
import { SYSTEM_ORIGIN, startSystem, type System } from '../support/system.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Hostile input at the gateway's edge (issue #11, "gateway edge input"): out-of-shape client
 * credentials, body-less POSTs with a JSON content type, secrets in query strings reaching the
 * logs, logout with a bad access cookie, and anonymous writes without a per-address limit.
 */
describe('hostile: edge input of the auth endpoints', () => {
  let system: System;
  let fx: IdentityFixtures;
  let tracing: TestTracing;
  let logged = '';
  let n = 0;
  const address = () => `192.0.2.${(n += 1) % 250}`;

  beforeAll(async () => {
    tracing = installTestTracing();
    // The gateway's real logger (pino, secrets redacted), writing to a stream the test reads.
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    system = await startSystem('edge_input', {
      trustProxyHops: 1,
      gatewayLogger: createLogger({ service: 'gateway', level: 'info', destination }),
      // Never reached: the start refuses or the callback fails on state before discovery.
      ssoProviders: [
        { key: 'corp', issuer: 'http://127.0.0.1:9', clientId: 'tap-corp', clientSecret: 'x'.repeat(32) },
      ],
    });
    fx = await openIdentityFixtures(system);
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
    await tracing?.uninstall();
  });

  describe('POST /oauth/token with a 600-character client_id', () => {
    const long = 'c'.repeat(600);

    it.each([
      [
        'in the form',
        { ...FORM_HEADERS },
        form({ grant_type: 'client_credentials', client_id: long, client_secret: 's' }),
      ],
      [
        'in HTTP Basic',
        { ...FORM_HEADERS, authorization: `Basic ${Buffer.from(`${long}:s`).toString('base64')}` },
        form({ grant_type: 'client_credentials' }),
      ],
    ])('%s: 400 invalid_request, and no error is logged', async (_how, headers, body) => {
      const before = logged.length;
      const response = await system.http('POST', '/api/v1/oauth/token', {
        headers: { ...headers, 'x-forwarded-for': address() },
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      expect(logged.slice(before)).not.toContain('"level":"error"');
    });
  });

  describe('body-less POSTs with Content-Type: application/json and an empty body', () => {
    it('POST /auth/logout (bearer) answers 204', async () => {
      const owner = await fx.tenantWithOwner('Empty Body');
      const { accessToken } = await fx.signIn(owner);
      const response = await system.http('POST', '/api/v1/auth/logout', {
        headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` },
      });
      expect(response.status).toBe(204);
    });

    it('POST /auth/v2/refresh and /auth/v2/logout answer 204', async () => {
      const owner = await fx.tenantWithOwner('Empty Body Cookies');
      const browser = new Browser(system, new CookieJar(), address());
      const login = await browser.post('/api/v1/auth/v2/login', {
        body: { email: owner.email, password: owner.password },
      });
      expect(login.status).toBe(200);
      expect((await browser.post('/api/v1/auth/v2/refresh', { headers: JSON_HEADERS })).status).toBe(204);
      expect((await browser.post('/api/v1/auth/v2/logout', { headers: JSON_HEADERS })).status).toBe(204);
    });

    it('POST /oauth/clients/{id}/rotate answers 200 with the new secret', async () => {
      const owner = await fx.tenantWithOwner('Empty Body Rotate');
      const { accessToken } = await fx.signIn(owner);
      const client = await fx.oauthClient(owner.tenantId, ['products:read']);
      const response = await system.http('POST', `/api/v1/oauth/clients/${client.clientId}/rotate`, {
        headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` },
      });
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.body)).toContain('clientSecret');
    });

    it('POST /tenant/adoption/milestones/{key}/complete reaches the milestone rules (no 400)', async () => {
      const tenantId = await system.createTenant('Empty Body Milestone');
      await system.setTier(tenantId, 'CORE');
      const response = await system.http(
        'POST',
        '/api/v1/tenant/adoption/milestones/kickoff_call_held/complete',
        { headers: { ...JSON_HEADERS, authorization: `Bearer ${await system.token(tenantId)}` } },
      );
      // A fresh tenant has not met the milestone's dependencies: the domain's answer, not the parser's.
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: { code: 'MILESTONE_DEPENDENCIES_UNMET' } });
    });

    it('a route that needs a body still refuses an empty one with 400 in its shape', async () => {
      const v1 = await system.http('POST', '/api/v1/auth/login', {
        headers: { ...JSON_HEADERS, 'x-forwarded-for': address() },
      });
      expect(v1.status).toBe(400);
      expect(v1.body).toMatchObject({ error: 'invalid_request' });
      const v2 = await new Browser(system, new CookieJar(), address()).post(
        '/api/v1/auth/v2/magic-link/request',
        {
          headers: JSON_HEADERS,
        },
      );
      expect(v2.status).toBe(400);
      expect(v2.body).toMatchObject({ success: false });
    });
  });

  it('keeps SSO code and state and refused query-string tokens out of the logs and the spans', async () => {
    const before = logged.length;
    const browser = new Browser(system, new CookieJar(), address());
    const callback = await browser.request(
      'GET',
      '/api/v1/auth/v2/sso/corp/callback?code=SECRET-CODE-4711&state=SECRET-STATE-4712',
      { origin: null, redirect: 'manual' },
    );
    expect(locationOf(callback)).toBe(`${SYSTEM_ORIGIN}/auth/sso/error?reason=invalid_state`);
    const redeem = await browser.post('/api/v1/auth/v2/magic-link/redeem?token=SECRET-TOKEN-4713', {
      body: { token: 'x' },
    });
    expect(redeem.status).toBe(400);
    const attributes = JSON.stringify(tracing.spans().map((span) => span.attributes));
    expect(attributes).toContain('/api/v1/auth/v2/sso/corp/callback?[redacted]');
    const lines = logged.slice(before);
    expect(lines).toContain('/api/v1/auth/v2/sso/corp/callback?[redacted]');
    expect(lines).toContain('/api/v1/auth/v2/magic-link/redeem?[redacted]');
    for (const secret of ['SECRET-CODE-4711', 'SECRET-STATE-4712', 'SECRET-TOKEN-4713']) {
      expect(lines).not.toContain(secret);
      expect(attributes).not.toContain(secret);
    }
  });

  it.each([
    ['a 5,000-character code', `code=${'c'.repeat(5_000)}&state=s`],
    ['a repeated state', 'code=c&state=a&state=b'],
    ['a control character', 'code=c%00&state=s'],
    ['a non-ASCII value', 'code=%E2%80%AE&state=s'],
  ])('refuses an SSO callback with %s before reading it', async (_what, query) => {
    const browser = new Browser(system, new CookieJar(), address());
    const callback = await browser.request('GET', `/api/v1/auth/v2/sso/corp/callback?${query}`, {
      origin: null,
      redirect: 'manual',
    });
    expect(locationOf(callback)).toBe(`${SYSTEM_ORIGIN}/auth/sso/error?reason=invalid_callback`);
  });

  it('POST /auth/v2/logout with an invalid svc_session still ends the refresh family and clears the cookies', async () => {
    const owner = await fx.tenantWithOwner('Logout Bad Cookie');
    const browser = new Browser(system, new CookieJar(), address());
    expect(
      (
        await browser.post('/api/v1/auth/v2/login', {
          body: { email: owner.email, password: owner.password },
        })
      ).status,
    ).toBe(200);
    const refreshCookie = browser.jar.get('svc_refresh')!.value;
    const csrf = browser.jar.get('svc_csrf')!.value;
    // The access cookie is garbage (tampered, or from another deployment); the refresh cookie is live.
    const logout = await system.http('POST', '/api/v1/auth/v2/logout', {
      headers: {
        origin: SYSTEM_ORIGIN,
        'x-forwarded-for': address(),
        'x-csrf-token': csrf,
        cookie: `svc_session=not-a-token; svc_refresh=${refreshCookie}; svc_csrf=${csrf}`,
      },
    });
    expect(logout.status).toBe(204);
    const cleared = logout.headers.getSetCookie().map((c) => c.split('=')[0]);
    expect(cleared).toEqual(expect.arrayContaining(['svc_session', 'svc_refresh', 'svc_csrf']));
    // The refresh cookie, replayed as the browser would send it, finds its family ended.
    const refresh = await system.http('POST', '/api/v1/auth/v2/refresh', {
      headers: {
        origin: SYSTEM_ORIGIN,
        'x-forwarded-for': address(),
        'x-csrf-token': csrf,
        cookie: `svc_refresh=${refreshCookie}; svc_csrf=${csrf}`,
      },
    });
    expect(refresh.status).toBe(401);
  });

  it('limits SSO starts per address: the 11th in a minute goes to the error page, another address still starts', async () => {
    const busy = new Browser(system, new CookieJar(), '198.18.0.1');
    const reasons: string[] = [];
    for (let i = 0; i < 11; i += 1)
      reasons.push(new URL(locationOf(await ssoStart(busy, 'corp', '/x'))).searchParams.get('reason')!);
    // Allowed starts reach discovery (the provider here is unreachable); the 11th is refused before.
    expect(reasons.slice(0, 10)).toEqual(new Array(10).fill('provider_unavailable'));
    expect(reasons[10]).toBe('rate_limited');
    const other = new Browser(system, new CookieJar(), '198.18.0.2');
    const reason = new URL(locationOf(await ssoStart(other, 'corp', '/x'))).searchParams.get('reason');
    expect(reason).toBe('provider_unavailable');
  });

  it('limits magic-link redemptions per address (20 a minute)', async () => {
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const response = await system.http('POST', '/api/v1/auth/v2/magic-link/redeem', {
        headers: { origin: SYSTEM_ORIGIN, 'x-forwarded-for': from },
        body: { token: `unknown-${i}` },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20)).toEqual(new Array(20).fill(400));
    expect(statuses[20]).toBe(429);
  });
});
