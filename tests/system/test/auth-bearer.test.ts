import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';

/** The spec's OAuth-style error body, and nothing else in it. */
const oauthError = (error: string) => ({ error, error_description: expect.any(String) });

describe('bearer login over HTTP (spec: "Bearer login")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;

  beforeAll(async () => {
    system = await startSystem('auth_bearer', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Bearer Foods');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const call = (path: string, accessToken: string) =>
    system.http('GET', path, { headers: { authorization: `Bearer ${accessToken}` } });
  const logout = (accessToken: string) =>
    system.http('POST', '/api/v1/auth/logout', { headers: { authorization: `Bearer ${accessToken}` } });
  const expectInvalidToken = (response: HttpResponse) => {
    expect(response.status).toBe(401);
    expect(response.body).toEqual(oauthError('invalid_token'));
  };

  describe('POST /auth/login', () => {
    it('answers { success, data: { accessToken, refreshToken, user: { id, email, role } } } and the token works', async () => {
      const response = await fx.login(owner);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          accessToken: expect.any(String),
          refreshToken: expect.any(String),
          user: { id: owner.userId, email: owner.email, role: 'OWNER' },
        },
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const { accessToken } = (response.body as { data: { accessToken: string } }).data;
      const tenant = await call('/api/v1/tenant', accessToken);
      expect(tenant.status).toBe(200);
      expect((tenant.body as { data: { id: string } }).data.id).toBe(owner.tenantId);
    });

    it('answers a wrong password, an unknown email and an inactive account with one 401 invalid_client', async () => {
      const inactive = await fx.addUser(owner.tenantId, 'MEMBER');
      await fx.db
        .collection('users')
        .updateOne({ _id: inactive.userId as never }, { $set: { active: false } });
      const answers = await Promise.all([
        fx.login({ email: owner.email, password: 'not the right password' }),
        fx.login({ email: 'nobody@nowhere.example', password: owner.password }),
        fx.login(inactive),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual(oauthError('invalid_client'));
      }
      // Identical bodies: nothing tells which of the three it was.
      expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    });

    it.each([
      ['a missing password', { headers: {}, body: { email: 'a@b.example' } }],
      ['a missing email', { headers: {}, body: { password: 'x' } }],
      ['an email that is not a string', { headers: {}, body: { email: 42, password: 'x' } }],
      ['an empty body', { headers: { 'content-type': 'application/json' }, body: '' }],
      [
        'malformed JSON',
        { headers: { 'content-type': 'application/json' }, body: '{"email": "a@b.example",' },
      ],
      [
        'a form body (wrong content type)',
        {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'email=a%40b.example&password=x',
        },
      ],
      [
        'a text body (wrong content type)',
        { headers: { 'content-type': 'text/plain' }, body: '{"email":"a@b.example","password":"x"}' },
      ],
      ['no body at all', { headers: {}, body: undefined }],
    ])('answers %s with 400 invalid_request', async (_label, request) => {
      const response = await system.http('POST', '/api/v1/auth/login', {
        headers: { 'x-forwarded-for': '192.0.2.200', ...request.headers },
        body: request.body,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(oauthError('invalid_request'));
    });
  });

  describe('POST /auth/refresh', () => {
    it('returns a new access token and a new refresh token, and the old refresh token is rotated out', async () => {
      const first = await fx.signIn(owner);
      const response = await fx.refresh(first.refreshToken);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: { accessToken: expect.any(String), refreshToken: expect.any(String) },
      });
      const second = (response.body as { data: { accessToken: string; refreshToken: string } }).data;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect((await call('/api/v1/tenant', second.accessToken)).status).toBe(200);
    });

    it('honours the immediate parent again within the grace window with the same pair of refresh tokens', async () => {
      const first = await fx.signIn(owner);
      const child = (await fx.refresh(first.refreshToken)).body as { data: { refreshToken: string } };
      const again = (await fx.refresh(first.refreshToken)).body as { data: { refreshToken: string } };
      expect(again.data.refreshToken).toBe(child.data.refreshToken);
    });

    it('revokes the whole family when a rotated-out token is replayed: refresh and access tokens', async () => {
      const first = await fx.signIn(owner);
      const second = (
        (await fx.refresh(first.refreshToken)).body as { data: { accessToken: string; refreshToken: string } }
      ).data;
      const third = (
        (await fx.refresh(second.refreshToken)).body as {
          data: { accessToken: string; refreshToken: string };
        }
      ).data;
      expect((await call('/api/v1/tenant', third.accessToken)).status).toBe(200);

      const replay = await fx.refresh(first.refreshToken);
      expectInvalidToken(replay);
      expectInvalidToken(await fx.refresh(third.refreshToken));
      expectInvalidToken(await call('/api/v1/tenant', third.accessToken));
      expectInvalidToken(await call('/api/v1/tenant', first.accessToken));
      // Other sessions of the same user are untouched.
      const other = await fx.signIn(owner);
      expect((await call('/api/v1/tenant', other.accessToken)).status).toBe(200);
    });

    it('answers an unknown, a malformed, an expired and a revoked refresh token with 401 invalid_token', async () => {
      expectInvalidToken(await fx.refresh('not-a-refresh-token'));
      expectInvalidToken(await fx.refresh(`00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`));

      const expiring = await fx.signIn(owner);
      const sessionId = expiring.refreshToken.split('.')[0]!;
      await fx.db
        .collection('sessions')
        .updateOne({ _id: sessionId as never }, { $set: { currentExpiresAt: new Date(Date.now() - 1_000) } });
      expectInvalidToken(await fx.refresh(expiring.refreshToken));

      const loggedOut = await fx.signIn(owner);
      expect((await logout(loggedOut.accessToken)).status).toBe(204);
      expectInvalidToken(await fx.refresh(loggedOut.refreshToken));
    });

    it.each([
      ['a missing refreshToken', { refreshToken: undefined }],
      ['a refreshToken that is not a string', { refreshToken: 7 }],
    ])('answers %s with 400 invalid_request', async (_label, body) => {
      const response = await system.http('POST', '/api/v1/auth/refresh', { body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(oauthError('invalid_request'));
    });

    it('answers a wrong content type and malformed JSON with 400 invalid_request', async () => {
      for (const [type, body] of [
        ['text/plain', 'token'],
        ['application/json', '{"refreshToken":'],
        ['application/x-www-form-urlencoded', 'refreshToken=x'],
      ] as const) {
        const response = await system.http('POST', '/api/v1/auth/refresh', {
          headers: { 'content-type': type },
          body,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(oauthError('invalid_request'));
      }
    });
  });

  describe('POST /auth/logout', () => {
    it('invalidates the session: its access token is refused from that moment, and so is a second logout', async () => {
      const session = await fx.signIn(owner);
      expect((await call('/api/v1/tenant', session.accessToken)).status).toBe(200);
      const response = await logout(session.accessToken);
      expect(response.status).toBe(204);
      expect(response.body).toBe('');
      const after = await call('/api/v1/tenant', session.accessToken);
      expectInvalidToken(after);
      expect(after.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expectInvalidToken(await logout(session.accessToken));
    });

    it('ends only that session', async () => {
      const a = await fx.signIn(owner);
      const b = await fx.signIn(owner);
      await logout(a.accessToken);
      expect((await call('/api/v1/tenant', b.accessToken)).status).toBe(200);
      expect((await fx.refresh(b.refreshToken)).status).toBe(200);
    });

    it("needs a bearer token, and a user's one", async () => {
      expectInvalidToken(await system.http('POST', '/api/v1/auth/logout'));
      const client = await fx.oauthClient(owner.tenantId, ['dpp:read']);
      const response = await logout(await fx.clientToken(client.clientId, client.clientSecret));
      expect(response.status).toBe(403);
      expect(response.body).toEqual(oauthError('insufficient_scope'));
    });
  });
});
