import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTapClient, TapClientError, type UserTokens } from '@tap/client';
import { browserTransport, recordingTransport, type SentRequest } from './support/client-transport.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type System } from './support/system.js';

const TWO_HOURS_AGO = () => new Date(Date.now() - 2 * 3_600_000);
const sentTo = (sent: readonly SentRequest[], path: string) => sent.filter((r) => r.path === path);

// @tap/client against the real system: identity's real tokens, the gateway's real checks.
describe('@tap/client credentials (spec: "Token handling rules")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let addresses = 0;
  const nextAddress = () => `198.51.100.${(addresses += 1)}`;

  beforeAll(async () => {
    system = await startSystem('client_sessions', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Typed Client Ltd');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  /** A real access token of the owner, signed by identity's key, expired an hour and three quarters ago. */
  const expiredOwnerToken = () =>
    fx.forge(
      { subject: owner.userId, tenantId: owner.tenantId, role: 'OWNER' },
      { issuedAt: TWO_HOURS_AGO() },
    );

  describe('client credentials', () => {
    it('requests only the scopes it is given, caches the token, and renews it before it expires', async () => {
      const { clientId, clientSecret } = await fx.oauthClient(owner.tenantId, ['dpp:read', 'products:read']);
      const transport = recordingTransport();
      let now = Date.now();
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'clientCredentials', clientId, clientSecret, scopes: ['dpp:read'] },
        fetch: transport.fetch,
        now: () => now,
      });
      for (let i = 0; i < 3; i += 1) {
        const { response } = await tap.GET('/entitlements/usage');
        expect(response.status).toBe(200);
      }
      const tokenRequests = () => sentTo(transport.sent, '/api/v1/oauth/token');
      expect(tokenRequests()).toHaveLength(1);
      const sentForm = new URLSearchParams(tokenRequests()[0]!.body);
      expect(sentForm.get('grant_type')).toBe('client_credentials');
      expect(sentForm.get('scope')).toBe('dpp:read');

      // 14 minutes on (the token lives 15): still cached; past the last minute: a new one.
      now += 13 * 60_000;
      expect((await tap.GET('/entitlements/usage')).response.status).toBe(200);
      expect(tokenRequests()).toHaveLength(1);
      now += 60_000 + 1;
      expect((await tap.GET('/entitlements/usage')).response.status).toBe(200);
      expect(tokenRequests()).toHaveLength(2);
      const bearers = sentTo(transport.sent, '/api/v1/entitlements/usage').map((r) =>
        r.headers.get('authorization'),
      );
      expect(new Set(bearers).size).toBe(2);
    });

    it('throws TOKEN_REQUEST_FAILED (401) for a wrong secret and sends nothing else', async () => {
      const { clientId } = await fx.oauthClient(owner.tenantId, ['dpp:read']);
      const { clientSecret: anotherClientsSecret } = await fx.oauthClient(owner.tenantId, ['dpp:read']);
      const transport = recordingTransport();
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: {
          kind: 'clientCredentials',
          clientId,
          clientSecret: anotherClientsSecret,
          scopes: ['dpp:read'],
        },
        fetch: transport.fetch,
      });
      const failure = await tap.GET('/entitlements/usage').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TapClientError);
      expect(failure).toMatchObject({ code: 'TOKEN_REQUEST_FAILED', status: 401 });
      expect(transport.sent.map((r) => r.path)).toEqual(['/api/v1/oauth/token']);
    });
    it('on a 401 drops the cached token and asks for a new one once (here refused: the client was deleted)', async () => {
      const { clientId, clientSecret } = await fx.oauthClient(owner.tenantId, ['dpp:read']);
      const transport = recordingTransport();
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'clientCredentials', clientId, clientSecret, scopes: ['dpp:read'] },
        fetch: transport.fetch,
      });
      expect((await tap.GET('/tenant')).response.status).toBe(200);
      const session = await fx.signIn(owner);
      const deleted = await system.http('DELETE', `/api/v1/oauth/clients/${clientId}`, {
        headers: { authorization: `Bearer ${session.accessToken}` },
      });
      expect(deleted.status).toBe(204);
      const before = transport.sent.length;
      const failure = await tap.GET('/tenant').catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'TOKEN_REQUEST_FAILED', status: 401 });
      expect(transport.sent.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /api/v1/tenant',
        'POST /api/v1/oauth/token',
      ]);
    });
  });

  describe('user bearer tokens', () => {
    it('on a real expired access token refreshes once (rotating the refresh token) and retries once', async () => {
      const session = await fx.signIn(owner);
      const transport = recordingTransport();
      const rotated: UserTokens[] = [];
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: {
          kind: 'userTokens',
          tokens: { accessToken: await expiredOwnerToken(), refreshToken: session.refreshToken },
          onRefresh: (tokens) => rotated.push(tokens),
        },
        fetch: transport.fetch,
      });
      const { data, response } = await tap.GET('/tenant');
      expect(response.status).toBe(200);
      expect(data?.data).toMatchObject({ id: owner.tenantId });
      expect(transport.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
        'GET /api/v1/tenant',
        'POST /api/v1/auth/refresh',
        'GET /api/v1/tenant',
      ]);
      expect(rotated).toHaveLength(1);
      expect(rotated[0]!.refreshToken).not.toBe(session.refreshToken);
      expect(transport.sent[2]!.headers.get('authorization')).toBe(`Bearer ${rotated[0]!.accessToken}`);
    });

    it('concurrent 401s share one refresh (a second use of a rotated token would be reuse)', async () => {
      const session = await fx.signIn(owner);
      const transport = recordingTransport();
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: {
          kind: 'userTokens',
          tokens: { accessToken: await expiredOwnerToken(), refreshToken: session.refreshToken },
        },
        fetch: transport.fetch,
      });
      const answers = await Promise.all(Array.from({ length: 5 }, () => tap.GET('/tenant')));
      expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200, 200]);
      expect(sentTo(transport.sent, '/api/v1/auth/refresh')).toHaveLength(1);
    });

    it('when the refresh token is refused: one refresh, the 401 handed back, the session ended', async () => {
      const transport = recordingTransport();
      let ended = 0;
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: {
          kind: 'userTokens',
          tokens: {
            accessToken: await expiredOwnerToken(),
            refreshToken: `${'0'.repeat(36)}.${'Z'.repeat(43)}`,
          },
          onSessionExpired: () => (ended += 1),
        },
        fetch: transport.fetch,
      });
      const { error, response } = await tap.GET('/tenant');
      expect(response.status).toBe(401);
      expect(error).toMatchObject({ error: 'invalid_token' });
      expect(sentTo(transport.sent, '/api/v1/auth/refresh')).toHaveLength(1);
      expect(ended).toBe(1);
      const next = await tap.GET('/tenant').catch((e: unknown) => e);
      expect(next).toMatchObject({ code: 'SESSION_EXPIRED' });
      expect(transport.sent).toHaveLength(2);
    });

    it('a wrong password at /auth/login is a 401 to hand back, not a reason to refresh', async () => {
      const transport = recordingTransport(nextAddress());
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'none' },
        fetch: transport.fetch,
      });
      const { response } = await tap.POST('/auth/login', {
        body: { email: owner.email, password: 'not the password' },
      });
      expect(response.status).toBe(401);
      expect(transport.sent).toHaveLength(1);
    });
  });

  describe('browser session (cookies, as the console uses it)', () => {
    const signedInBrowser = async () => {
      const browser = browserTransport(nextAddress());
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'browserSession', csrfToken: browser.csrfToken },
        fetch: browser.fetch,
      });
      const { response } = await tap.POST('/auth/v2/login', {
        body: { email: owner.email, password: owner.password },
      });
      expect(response.status).toBe(200);
      expect(browser.csrfToken()).toEqual(expect.any(String));
      return { browser, tap };
    };

    it('sends X-CSRF-Token from the svc_csrf cookie on state-changing calls, not on reads', async () => {
      const { browser, tap } = await signedInBrowser();
      expect((await tap.GET('/oauth/clients')).response.status).toBe(200);
      const created = await tap.POST('/oauth/clients', {
        body: { name: 'console-made', scopes: ['dpp:read'] },
      });
      expect(created.response.status).toBe(201);
      const [read, write] = [
        sentTo(browser.sent, '/api/v1/oauth/clients')[0]!,
        sentTo(browser.sent, '/api/v1/oauth/clients')[1]!,
      ];
      expect(read.headers.get('x-csrf-token')).toBeNull();
      expect(write.headers.get('x-csrf-token')).toBe(browser.csrfToken());
    });

    it('without the CSRF copy the gateway refuses the write (the header is what lets it through)', async () => {
      const { browser } = await signedInBrowser();
      const noCsrf = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'browserSession', csrfToken: () => undefined },
        fetch: browser.fetch,
      });
      const { response } = await noCsrf.POST('/oauth/clients', {
        body: { name: 'forged', scopes: ['dpp:read'] },
      });
      expect(response.status).toBe(403);
    });

    it('on an expired session cookie refreshes through /auth/v2/refresh and retries once', async () => {
      const { browser, tap } = await signedInBrowser();
      const session = browser.jar.get('svc_session')!;
      browser.jar.set('svc_session', await expiredOwnerToken(), session.path);
      const csrfBefore = browser.csrfToken();
      const sentBefore = browser.sent.length;
      const { response } = await tap.POST('/oauth/clients', {
        body: { name: 'after-refresh', scopes: ['dpp:read'] },
      });
      expect(response.status).toBe(201);
      const calls = browser.sent.slice(sentBefore);
      expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /api/v1/oauth/clients',
        'POST /api/v1/auth/v2/refresh',
        'POST /api/v1/oauth/clients',
      ]);
      expect(calls[1]!.headers.get('x-csrf-token')).toBe(csrfBefore);
      // The retry carries the rotated session and the CSRF value as it is after the refresh.
      expect(calls[2]!.headers.get('x-csrf-token')).toBe(browser.csrfToken());
      expect(calls[2]!.headers.get('cookie')).toContain(
        `svc_session=${browser.jar.get('svc_session')!.value}`,
      );
    });

    it('when the refresh cookie is gone: one refresh, then the 401 and onSessionExpired', async () => {
      const { browser } = await signedInBrowser();
      let ended = 0;
      const tap = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'browserSession', csrfToken: browser.csrfToken, onSessionExpired: () => (ended += 1) },
        fetch: browser.fetch,
      });
      browser.jar.delete('svc_session');
      browser.jar.delete('svc_refresh');
      const sentBefore = browser.sent.length;
      const { response } = await tap.GET('/tenant');
      expect(response.status).toBe(401);
      expect(browser.sent.slice(sentBefore).map((r) => r.path)).toEqual([
        '/api/v1/tenant',
        '/api/v1/auth/v2/refresh',
      ]);
      expect(ended).toBe(1);
    });
  });
});
