import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Browser } from './support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';

const SESSIONS = '/api/v1/auth/sessions';
const errorCode = (response: HttpResponse) => (response.body as { error?: { code?: string } }).error?.code;

interface SessionJson {
  id: string;
  userAgent: string;
  address: string;
  createdAt: string;
  lastUsedAt: string | null;
  current: boolean;
}

describe('a user\'s sessions (issue #22 part 4; TEAM-API.md "Invitations and sessions")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let addresses = 0;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    system = await startSystem('account_sessions', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Session Works');
    // This suite makes more users than a default tier's seats (seats are seats.test.ts's to prove).
    await system.setTier(owner.tenantId, 'ENTERPRISE');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  /** POST /auth/login with a user agent and a client address of its own. */
  const signIn = async (account: Account, userAgent = 'TestAgent/1.0') => {
    const address = `192.0.2.${(addresses += 1)}`;
    const response = await system.http('POST', '/api/v1/auth/login', {
      headers: { 'user-agent': userAgent, 'x-forwarded-for': address },
      body: { email: account.email, password: account.password },
    });
    expect(response.status).toBe(200);
    const data = (response.body as { data: { accessToken: string; refreshToken: string } }).data;
    return { ...data, address, userAgent };
  };
  const list = async (token: string) => {
    const response = await system.http('GET', SESSIONS, { headers: bearer(token) });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return (response.body as { data: { sessions: SessionJson[] } }).data.sessions;
  };
  const works = async (token: string) =>
    (await system.http('GET', '/api/v1/tenant', { headers: bearer(token) })).status === 200;

  it("lists the caller's sessions with user agent, address, created, last used and the current one", async () => {
    const user = await fx.addUser(owner.tenantId, 'MEMBER');
    const laptop = await signIn(user, 'Mozilla/5.0 (X11; Linux x86_64) Laptop');
    const phone = await signIn(user, 'Mozilla/5.0 (iPhone) Phone');
    const refreshed = await fx.refresh(phone.refreshToken);
    expect(refreshed.status).toBe(200);

    const sessions = await list(laptop.accessToken);
    expect(sessions).toHaveLength(2);
    const current = sessions.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({
      userAgent: laptop.userAgent,
      address: laptop.address,
      lastUsedAt: null,
    });
    const other = sessions.find((s) => !s.current)!;
    expect(other).toMatchObject({ userAgent: phone.userAgent, address: phone.address });
    expect(other.lastUsedAt).not.toBeNull();
    expect(Date.parse(other.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(other.createdAt));
    // Another user's sessions are not in the list.
    const ownerSession = await signIn(owner);
    expect((await list(ownerSession.accessToken)).map((s) => s.id)).not.toContain(other.id);
  });

  it('ends one session: its access token answers 401 at once and its refresh token is dead', async () => {
    const user = await fx.addUser(owner.tenantId, 'MEMBER');
    const keep = await signIn(user);
    const end = await signIn(user);
    const target = (await list(keep.accessToken)).find((s) => !s.current)!;
    const ended = await system.http('DELETE', `${SESSIONS}/${target.id}`, {
      headers: bearer(keep.accessToken),
    });
    expect(ended.status).toBe(204);
    expect(await works(end.accessToken)).toBe(false);
    expect((await fx.refresh(end.refreshToken)).status).toBe(401);
    expect(await works(keep.accessToken)).toBe(true);
    expect((await list(keep.accessToken)).map((s) => s.id)).not.toContain(target.id);
    const again = await system.http('DELETE', `${SESSIONS}/${target.id}`, {
      headers: bearer(keep.accessToken),
    });
    expect([again.status, errorCode(again)]).toEqual([404, 'SESSION_NOT_FOUND']);
  });

  it("answers another user's or another tenant's session id 404 and ends nothing", async () => {
    const user = await fx.addUser(owner.tenantId, 'MEMBER');
    const colleague = await fx.addUser(owner.tenantId, 'MEMBER');
    const stranger = await fx.tenantWithOwner('Strangers');
    const mine = await signIn(user);
    const theirs = await signIn(colleague);
    const foreign = await signIn(stranger);
    for (const victim of [theirs, foreign]) {
      const [session] = await list(victim.accessToken);
      const response = await system.http('DELETE', `${SESSIONS}/${session!.id}`, {
        headers: bearer(mine.accessToken),
      });
      expect([response.status, errorCode(response)]).toEqual([404, 'SESSION_NOT_FOUND']);
      expect(await works(victim.accessToken)).toBe(true);
    }
    for (const id of ['no-such-session', '00000000-0000-4000-8000-000000000000']) {
      const response = await system.http('DELETE', `${SESSIONS}/${id}`, {
        headers: bearer(mine.accessToken),
      });
      expect(response.status).toBe(404);
    }
  });

  it('ends all the other sessions and keeps the current one', async () => {
    const user = await fx.addUser(owner.tenantId, 'MEMBER');
    const current = await signIn(user);
    const others = [await signIn(user), await signIn(user)];
    const response = await system.http('POST', `${SESSIONS}/revoke-others`, {
      headers: bearer(current.accessToken),
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { revoked: 2 } });
    for (const other of others) {
      expect(await works(other.accessToken)).toBe(false);
      expect((await fx.refresh(other.refreshToken)).status).toBe(401);
    }
    expect(await works(current.accessToken)).toBe(true);
    expect((await list(current.accessToken)).map((s) => s.current)).toEqual([true]);
  });

  it('lists and ends sessions of a cookie session too (X-CSRF-Token on writes)', async () => {
    const user = await fx.addUser(owner.tenantId, 'MEMBER');
    const other = await signIn(user);
    const browser = new Browser(system, undefined, `192.0.2.${(addresses += 1)}`);
    const login = await browser.post('/api/v1/auth/v2/login', {
      body: { email: user.email, password: user.password },
      headers: { 'user-agent': 'CookieBrowser/2.0' },
    });
    expect(login.status).toBe(200);
    const listed = await browser.request('GET', SESSIONS);
    expect(listed.status).toBe(200);
    const sessions = (listed.body as { data: { sessions: SessionJson[] } }).data.sessions;
    expect(sessions.find((s) => s.current)).toMatchObject({ userAgent: 'CookieBrowser/2.0' });
    const withoutCsrf = await browser.post(`${SESSIONS}/revoke-others`, { csrf: false });
    expect(withoutCsrf.status).toBe(403);
    expect(await works(other.accessToken)).toBe(true);
    const revoked = await browser.post(`${SESSIONS}/revoke-others`);
    expect(revoked.body).toEqual({ success: true, data: { revoked: 1 } });
    expect(await works(other.accessToken)).toBe(false);
  });

  it("lets an OWNER or ADMIN end every session of a member, an ADMIN not an OWNER's", async () => {
    const admin = await fx.addUser(owner.tenantId, 'ADMIN');
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const adminSession = await signIn(admin);
    const ownerSession = await signIn(owner);
    const memberSessions = [await signIn(member), await signIn(member)];
    const path = (userId: string) => `/api/v1/tenant/members/${userId}/sessions`;

    const byAdmin = await system.http('DELETE', path(member.userId), {
      headers: bearer(adminSession.accessToken),
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual({ success: true, data: { revoked: 2 } });
    for (const session of memberSessions) expect(await works(session.accessToken)).toBe(false);

    const onOwner = await system.http('DELETE', path(owner.userId), {
      headers: bearer(adminSession.accessToken),
    });
    expect([onOwner.status, errorCode(onOwner)]).toEqual([403, 'FORBIDDEN_ROLE']);
    expect(await works(ownerSession.accessToken)).toBe(true);

    const byOwner = await system.http('DELETE', path(admin.userId), {
      headers: bearer(ownerSession.accessToken),
    });
    expect(byOwner.body).toEqual({ success: true, data: { revoked: 1 } });
    expect(await works(adminSession.accessToken)).toBe(false);
  });

  it("refuses MEMBERs and client tokens, and answers another tenant's member 404 changing nothing", async () => {
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const colleague = await fx.addUser(owner.tenantId, 'MEMBER');
    const memberSession = await signIn(member);
    const colleagueSession = await signIn(colleague);
    const path = (userId: string) => `/api/v1/tenant/members/${userId}/sessions`;
    const byMember = await system.http('DELETE', path(colleague.userId), {
      headers: bearer(memberSession.accessToken),
    });
    expect(byMember.status).toBe(403);
    expect(await works(colleagueSession.accessToken)).toBe(true);

    const { clientId, clientSecret } = await fx.oauthClient(owner.tenantId, ['products:read']);
    const clientToken = await fx.clientToken(clientId, clientSecret);
    for (const [method, url] of [
      ['GET', SESSIONS],
      ['POST', `${SESSIONS}/revoke-others`],
      ['DELETE', `${SESSIONS}/anything`],
      ['DELETE', path(colleague.userId)],
    ] as const) {
      const response = await system.http(method, url, { headers: bearer(clientToken) });
      expect(response.status).toBe(403);
    }

    const stranger = await fx.tenantWithOwner('Elsewhere');
    const strangerSession = await signIn(stranger);
    const ownerSession = await signIn(owner);
    for (const userId of [stranger.userId, 'no-such-user']) {
      const response = await system.http('DELETE', path(userId), {
        headers: bearer(ownerSession.accessToken),
      });
      expect([response.status, errorCode(response)]).toEqual([404, 'USER_NOT_FOUND']);
    }
    expect(await works(strangerSession.accessToken)).toBe(true);
    const tooLong = await system.http('DELETE', path('u'.repeat(65)), {
      headers: bearer(ownerSession.accessToken),
    });
    expect(tooLong.status).toBe(400);
  });
});
