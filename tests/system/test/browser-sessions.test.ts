import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Browser } from './support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';

const GRACE_MS = 1_500;
const V2 = '/api/v1/auth/v2';
const generalError = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cookie sessions under /auth/v2 (spec: "Cookie sessions")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;

  beforeAll(async () => {
    system = await startSystem('browser_sessions', {
      trustProxyHops: 1,
      refreshReuseGraceMs: GRACE_MS,
      cookieDomain: 'system-test.example',
    });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Cookie Bakery');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const signedIn = async (
    account: Account = owner,
  ): Promise<{ browser: Browser; response: HttpResponse }> => {
    const browser = browserAt();
    const response = await browser.post(`${V2}/login`, {
      body: { email: account.email, password: account.password },
    });
    expect(response.status).toBe(200);
    return { browser, response };
  };
  let addresses = 0;
  /** A new browser from its own address (the login limit is per address). */
  const browserAt = () => new Browser(system, undefined, `203.0.113.${(addresses += 1)}`);
  const tenantOf = (browser: Browser) => browser.request('GET', '/api/v1/tenant');

  describe('POST /auth/v2/login', () => {
    it('sets the three cookies with browser attributes and answers the cookie-session user', async () => {
      const { browser, response } = await signedIn();
      expect(response.body).toEqual({
        success: true,
        data: {
          user: {
            id: owner.userId,
            email: owner.email,
            role: 'OWNER',
            firstName: 'Olive',
            lastName: 'Owner',
            tenantId: owner.tenantId,
            tenant: {
              id: owner.tenantId,
              name: expect.any(String),
              slug: expect.any(String),
              subscriptionTier: expect.any(String),
            },
          },
        },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/accessToken|refreshToken/);
      const session = browser.jar.get('svc_session')!;
      const refresh = browser.jar.get('svc_refresh')!;
      const csrf = browser.jar.get('svc_csrf')!;
      for (const cookie of [session, refresh, csrf]) {
        expect(cookie.attributes.has('secure')).toBe(true);
        expect(cookie.attributes.get('domain')).toBe('system-test.example');
      }
      expect(session.attributes.has('httponly')).toBe(true);
      expect(session.attributes.get('samesite')).toBe('Lax');
      expect(session.attributes.get('max-age')).toBe('900');
      expect(session.path).toBe('/');
      expect(refresh.attributes.has('httponly')).toBe(true);
      expect(refresh.attributes.get('samesite')).toBe('Strict');
      expect(refresh.path).toBe('/api/v1/auth/v2');
      expect(refresh.attributes.get('max-age')).toBe(String(7 * 24 * 3600));
      expect(csrf.attributes.has('httponly')).toBe(false);
      expect(csrf.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('refuses a wrong password with 401 and sets no cookie', async () => {
      const browser = browserAt();
      const response = await browser.post(`${V2}/login`, {
        body: { email: owner.email, password: 'not the passphrase' },
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(generalError('INVALID_CREDENTIALS'));
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('refuses a body without a password with 400', async () => {
      const response = await browserAt().post(`${V2}/login`, { body: { email: owner.email } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    });
  });

  describe('Origin/Referer allowlist', () => {
    const body = () => ({ email: owner.email, password: owner.password });

    it('refuses a foreign Origin with 403 ORIGIN_NOT_ALLOWED on every JSON endpoint', async () => {
      for (const path of ['login', 'refresh', 'logout']) {
        const response = await browserAt().post(`${V2}/${path}`, {
          origin: 'https://evil.example',
          body: body(),
        });
        expect(response.status).toBe(403);
        expect(response.body).toEqual(generalError('ORIGIN_NOT_ALLOWED'));
      }
    });

    it('refuses Origin: null (sandboxed frames, file: pages)', async () => {
      const response = await browserAt().post(`${V2}/login`, { origin: 'null', body: body() });
      expect(response.status).toBe(403);
    });

    it('without Origin, judges the Referer: a foreign one is refused, an allowlisted one accepted', async () => {
      const foreign = await browserAt().post(`${V2}/login`, {
        origin: null,
        headers: { referer: 'https://evil.example/phish' },
        body: body(),
      });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toEqual(generalError('ORIGIN_NOT_ALLOWED'));
      const own = await browserAt().post(`${V2}/login`, {
        origin: null,
        headers: { referer: 'https://app.system-test.example/sign-in?next=/' },
        body: body(),
      });
      expect(own.status).toBe(200);
    });

    it('lets a request with neither header through (a non-browser client; documented)', async () => {
      const response = await browserAt().post(`${V2}/login`, { origin: null, body: body() });
      expect(response.status).toBe(200);
    });
  });

  describe('sign-in → refresh → logout', () => {
    it('refreshes with 204 and new cookies, and logout revokes the session and clears the cookies', async () => {
      const { browser } = await signedIn();
      const first = {
        session: browser.jar.get('svc_session')!.value,
        refresh: browser.jar.get('svc_refresh')!.value,
      };
      const csrf = browser.jar.get('svc_csrf')!.value;
      expect((await tenantOf(browser)).status).toBe(200);

      const refreshed = await browser.post(`${V2}/refresh`);
      expect(refreshed.status).toBe(204);
      expect(refreshed.body).toBe('');
      expect(browser.jar.get('svc_refresh')!.value).not.toBe(first.refresh);
      expect(browser.jar.get('svc_session')!.value).not.toBe(first.session);
      expect(browser.jar.get('svc_csrf')!.value).toBe(csrf);
      expect((await tenantOf(browser)).status).toBe(200);

      const stolen = browser.fork();
      const out = await browser.post(`${V2}/logout`);
      expect(out.status).toBe(204);
      expect(browser.jar.get('svc_session')).toBeUndefined();
      expect(browser.jar.get('svc_refresh')).toBeUndefined();
      expect(browser.jar.get('svc_csrf')).toBeUndefined();
      // The cookies kept by a copy are dead: the access token is revoked, and so is the family.
      expect((await tenantOf(stolen)).status).toBe(401);
      expect((await stolen.post(`${V2}/refresh`)).status).toBe(401);
    });

    it('logout is idempotent: with no cookies, and again after logging out', async () => {
      expect((await browserAt().post(`${V2}/logout`)).status).toBe(204);
      const { browser } = await signedIn();
      const again = browser.fork();
      expect((await browser.post(`${V2}/logout`)).status).toBe(204);
      expect((await again.post(`${V2}/logout`)).status).toBe(204);
      expect(again.jar.get('svc_session')).toBeUndefined();
    });

    it('logout with only the refresh cookie left (session cookie expired) still ends the family', async () => {
      const { browser } = await signedIn();
      browser.jar.delete('svc_session');
      const copy = browser.fork();
      expect((await browser.post(`${V2}/logout`)).status).toBe(204);
      expect((await copy.post(`${V2}/refresh`)).status).toBe(401);
    });
  });

  describe('CSRF double submit', () => {
    it('refuses refresh and logout without, or with a wrong, X-CSRF-Token', async () => {
      const { browser } = await signedIn();
      for (const path of ['refresh', 'logout']) {
        const missing = await browser.post(`${V2}/${path}`, { csrf: false });
        expect(missing.status).toBe(403);
        expect(missing.body).toEqual(generalError('CSRF_TOKEN_INVALID'));
        const wrong = await browser.post(`${V2}/${path}`, {
          csrf: false,
          headers: { 'x-csrf-token': 'A'.repeat(43) },
        });
        expect(wrong.status).toBe(403);
        expect(wrong.body).toEqual(generalError('CSRF_TOKEN_INVALID'));
      }
      // Nothing changed: the session still works.
      expect((await tenantOf(browser)).status).toBe(200);
    });

    it('bearer-protected endpoints accept the session cookie: GET without the header, POST only with it', async () => {
      const { browser } = await signedIn();
      expect((await browser.request('GET', '/api/v1/tenant', { csrf: false })).status).toBe(200);
      const create = (csrf: boolean) =>
        browser.post('/api/v1/oauth/clients', {
          csrf,
          body: { name: 'Cookie-made client', scopes: ['dpp:read'] },
        });
      const refused = await create(false);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(generalError('CSRF_TOKEN_INVALID'));
      expect((await create(true)).status).toBe(201);
    });

    it('a bearer header beside the session cookie is ambiguous: 400 invalid_request, neither is read', async () => {
      const { browser } = await signedIn();
      const response = await browser.request('GET', '/api/v1/tenant', {
        headers: { authorization: 'Bearer not-a-token' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('does not send the refresh cookie outside /auth/v2', async () => {
      const { browser } = await signedIn();
      expect(browser.jar.header('/api/v1/tenant')).not.toContain('svc_refresh');
      expect(browser.jar.header(`${V2}/refresh`)).toContain('svc_refresh');
    });
  });

  describe('refresh cookie reuse (docs/identity.md: reuse detection with a grace window)', () => {
    it('two tabs refreshing at once with the same cookie both keep the user signed in', async () => {
      const { browser } = await signedIn();
      const tab2 = browser.fork();
      const [a, b] = await Promise.all([browser.post(`${V2}/refresh`), tab2.post(`${V2}/refresh`)]);
      expect([a.status, b.status]).toEqual([204, 204]);
      expect(tab2.jar.get('svc_refresh')!.value).toBe(browser.jar.get('svc_refresh')!.value);
      expect((await tenantOf(browser)).status).toBe(200);
      expect((await tenantOf(tab2)).status).toBe(200);
      expect((await browser.post(`${V2}/refresh`)).status).toBe(204);
      expect((await tenantOf(browser)).status).toBe(200);
    });

    it('a refresh cookie replayed after its grace revokes the whole family', async () => {
      const { browser } = await signedIn();
      const thief = browser.fork();
      expect((await browser.post(`${V2}/refresh`)).status).toBe(204);
      await sleep(GRACE_MS + 500);
      const replay = await thief.post(`${V2}/refresh`);
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual(generalError('REFRESH_TOKEN_INVALID'));
      expect(thief.jar.get('svc_refresh')).toBeUndefined();
      // The legitimate browser is signed out too: its access token and its refresh cookie.
      expect((await tenantOf(browser)).status).toBe(401);
      expect((await browser.post(`${V2}/refresh`)).status).toBe(401);
    });

    it('refuses a forged refresh cookie and a missing one with 401', async () => {
      const browser = browserAt();
      browser.jar.set('svc_refresh', 'rt_forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', V2);
      browser.jar.set('svc_csrf', 'c'.repeat(43));
      const forged = await browser.post(`${V2}/refresh`);
      expect(forged.status).toBe(401);
      expect(forged.body).toEqual(generalError('REFRESH_TOKEN_INVALID'));
      const none = await browserAt().post(`${V2}/refresh`);
      expect(none.status).toBe(401);
    });

    it('a cookie refresh token presented to the bearer endpoint revokes its family', async () => {
      const { browser } = await signedIn();
      const lifted = browser.jar.get('svc_refresh')!.value;
      const response = await fx.refresh(lifted);
      expect(response.status).toBe(401);
      expect((await browser.post(`${V2}/refresh`)).status).toBe(401);
    });

    it('a bearer refresh token in the refresh cookie is refused', async () => {
      const pair = await fx.signIn(owner);
      const browser = browserAt();
      browser.jar.set('svc_refresh', pair.refreshToken, V2);
      browser.jar.set('svc_csrf', 'c'.repeat(43));
      expect((await browser.post(`${V2}/refresh`)).status).toBe(401);
      expect((await fx.refresh(pair.refreshToken)).status).toBe(401);
    });
  });
});
