import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Browser } from '../support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, SYSTEM_ORIGIN, type System } from '../support/system.js';

/*
 * Cross-site request forgery against the cookie surface: the Origin/Referer allowlist of
 * /auth/v2 and the double-submit X-CSRF-Token on every state-changing cookie-authenticated
 * request (docs/browser-sessions.md).
 */

const V2 = '/api/v1/auth/v2';
const originRefused = { success: false, error: { code: 'ORIGIN_NOT_ALLOWED', message: expect.any(String) } };
const csrfRefused = { success: false, error: { code: 'CSRF_TOKEN_INVALID', message: expect.any(String) } };

describe('CSRF and Origin variants', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let addresses = 0;

  beforeAll(async () => {
    system = await startSystem('hostile_csrf', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Csrf Mill');
    await system.setTier(owner.tenantId, 'CORE');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const browser = () => new Browser(system, undefined, `203.0.113.${(addresses += 1)}`);
  const signedIn = async () => {
    const b = browser();
    const response = await b.post(`${V2}/login`, { body: { email: owner.email, password: owner.password } });
    expect(response.status).toBe(200);
    return b;
  };
  const credentials = () => ({ email: owner.email, password: owner.password });

  describe('the Origin/Referer allowlist of /auth/v2', () => {
    it.each([
      ['a foreign origin', 'https://evil.example'],
      ['the literal null origin (sandboxed iframe, file:)', 'null'],
      ['the right host over http', SYSTEM_ORIGIN.replace('https:', 'http:')],
      ['the right host on another port', `${SYSTEM_ORIGIN}:8443`],
      ['a suffix of the allowed host', `${SYSTEM_ORIGIN}.evil.example`],
      ['a trailing slash', `${SYSTEM_ORIGIN}/`],
      ['an upper-cased host', SYSTEM_ORIGIN.toUpperCase()],
      ['two origins in one header', `${SYSTEM_ORIGIN} https://evil.example`],
    ])('refuses login from %s with 403 ORIGIN_NOT_ALLOWED', async (_label, origin) => {
      const response = await browser().post(`${V2}/login`, { origin, body: credentials() });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(originRefused);
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('refuses a Referer-only request from a foreign or unparseable referer', async () => {
      for (const referer of [
        'https://evil.example/page',
        `${SYSTEM_ORIGIN}.evil.example/`,
        'not a url',
        'null',
      ]) {
        const response = await browser().post(`${V2}/login`, {
          origin: null,
          headers: { referer },
          body: credentials(),
        });
        expect([referer, response.status, response.body]).toEqual([referer, 403, originRefused]);
      }
    });

    it('admits a Referer-only request from the app, and refuses a foreign Origin even with the app’s Referer', async () => {
      const admitted = await browser().post(`${V2}/login`, {
        origin: null,
        headers: { referer: `${SYSTEM_ORIGIN}/sign-in?next=/` },
        body: credentials(),
      });
      expect(admitted.status).toBe(200);
      const mixed = await browser().post(`${V2}/login`, {
        origin: 'https://evil.example',
        headers: { referer: `${SYSTEM_ORIGIN}/sign-in` },
        body: credentials(),
      });
      expect(mixed.status).toBe(403);
    });

    it('applies to refresh, logout and the magic-link endpoints too', async () => {
      const b = await signedIn();
      for (const path of [
        '/refresh',
        '/logout',
        '/magic-link/request',
        '/magic-link/redeem',
        '/invitations/inspect',
        '/invitations/accept',
      ]) {
        const body = path.startsWith('/magic')
          ? { email: owner.email, token: 'x' }
          : path.startsWith('/invitations')
            ? { token: 'inv_x.abcdefabcdefabcdefabcdef' }
            : undefined;
        const response = await b.post(`${V2}${path}`, { origin: 'https://evil.example', body });
        expect([path, response.status]).toEqual([path, 403]);
      }
      expect((await b.request('GET', '/api/v1/tenant')).status).toBe(200);
    });
  });

  describe('the double-submit X-CSRF-Token', () => {
    it('refuses refresh and logout by cookie without the header or with a mismatched one', async () => {
      const b = await signedIn();
      const session = b.jar.get('svc_session')!.value;
      for (const headers of [
        {},
        { 'x-csrf-token': 'forged' },
        { 'x-csrf-token': '' },
        { 'x-csrf-token': session },
      ] as Record<string, string>[]) {
        for (const path of ['/refresh', '/logout']) {
          const response = await b.post(`${V2}${path}`, { csrf: false, headers });
          expect([path, headers, response.status, response.body]).toEqual([path, headers, 403, csrfRefused]);
        }
      }
      // Nothing happened: the session is the same one and still works.
      expect(b.jar.get('svc_session')!.value).toBe(session);
      expect((await b.request('GET', '/api/v1/tenant')).status).toBe(200);
    });

    it('refuses a cookie-authenticated API write without a matching header, and reads need none', async () => {
      const b = await signedIn();
      const plan = {
        title: 'Forged plan',
        targetDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        objectives: [{ label: 'x', milestoneKeys: [] }],
      };
      for (const headers of [{}, { 'x-csrf-token': 'forged' }] as Record<string, string>[]) {
        const response = await b.post('/api/v1/tenant/adoption/success-plan', {
          csrf: false,
          headers,
          body: plan,
        });
        expect(response.status).toBe(403);
        expect(response.body).toEqual(csrfRefused);
      }
      // A csrf cookie the attacker planted (cookie tossing) only helps with its matching header,
      // which a cross-site page cannot set without CORS.
      const read = await b.request('GET', '/api/v1/tenant/adoption/success-plan', { csrf: false });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ success: true, data: null });
    });

    it('refuses cookie-authenticated invitation and session writes without the header; nothing ends', async () => {
      const b = await signedIn();
      const writes: [string, string, unknown][] = [
        ['POST', '/api/v1/tenant/invitations', { email: 'forged@evil.example', role: 'ADMIN' }],
        ['POST', '/api/v1/auth/sessions/revoke-others', undefined],
        ['DELETE', `/api/v1/tenant/members/${owner.userId}/sessions`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const response = await b.request(method, path, { csrf: false, ...(body ? { body } : {}) });
        expect([path, response.status, response.body]).toEqual([path, 403, csrfRefused]);
      }
      const invitations = await b.request('GET', '/api/v1/tenant/invitations', { csrf: false });
      expect(
        (invitations.body as { data: { invitations: { email: string }[] } }).data.invitations,
      ).not.toEqual(expect.arrayContaining([expect.objectContaining({ email: 'forged@evil.example' })]));
      expect((await b.request('GET', '/api/v1/tenant')).status).toBe(200);
    });
  });
});
