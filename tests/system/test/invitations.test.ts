import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Browser } from './support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { SYSTEM_ORIGIN, startSystem, type HttpResponse, type System } from './support/system.js';

const V2 = '/api/v1/auth/v2';
const INVITATIONS = '/api/v1/tenant/invitations';
const errorCode = (response: HttpResponse) => (response.body as { error?: { code?: string } }).error?.code;

describe('invitations (issue #22 part 3; TEAM-API.md "Invitations and sessions")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let ownerToken: string;
  let addresses = 0;
  let invitees = 0;
  const browserAt = () => new Browser(system, undefined, `203.0.113.${(addresses += 1)}`);
  const newAddress = () => `invitee-${(invitees += 1)}@${system.namespace.replace(/_/g, '-')}.example`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    system = await startSystem('invitations', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Invite Works');
    // This suite makes more users than a default tier's seats; the seat limit on acceptance has a
    // SUPPLIER_FREE tenant of its own below.
    await system.setTier(owner.tenantId, 'ENTERPRISE');
    ownerToken = (await fx.signIn(owner)).accessToken;
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  /** Invites `email` as `token`'s user and reads the link's token from the SMTP sink. */
  const invite = async (email: string, role = 'MEMBER', token = ownerToken) => {
    const since = system.mail.messages.length;
    const response = await system.http('POST', INVITATIONS, {
      headers: bearer(token),
      body: { email, role },
    });
    expect(response.status).toBe(201);
    const message = await system.mail.waitForMessage(email, { since, timeoutMs: 5_000 });
    const link = /https:\/\/\S+/.exec(message.text)?.[0] ?? '';
    expect(link.startsWith(`${SYSTEM_ORIGIN}/console/accept-invitation#token=inv_`)).toBe(true);
    expect(link).not.toContain('?');
    const invitation = (
      response.body as { data: { invitation: { id: string; createdAt: string; expiresAt: string } } }
    ).data.invitation;
    return { invitation, token: new URL(link).hash.slice('#token='.length), response };
  };
  const inspect = (token: string) => browserAt().post(`${V2}/invitations/inspect`, { body: { token } });
  const accept = (browser: Browser, body: Record<string, unknown>) =>
    browser.post(`${V2}/invitations/accept`, { body });
  const listPending = async (token = ownerToken) => {
    const response = await system.http('GET', INVITATIONS, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return (response.body as { data: { invitations: { id: string; email: string }[] } }).data.invitations;
  };

  it('invites by e-mail, mails a fragment link, shows it pending, and accepting creates the user and signs in', async () => {
    const email = newAddress();
    const { invitation, token, response } = await invite(email);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(invitation).toEqual({
      id: expect.any(String),
      email,
      role: 'MEMBER',
      status: 'PENDING',
      invitedBy: { id: owner.userId, email: owner.email },
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const sevenDays = Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt);
    expect(sevenDays).toBe(7 * 24 * 3_600_000);
    expect((await listPending()).map((i) => i.id)).toContain(invitation.id);
    // Only a keyed hash of the token is stored.
    const stored = JSON.stringify(
      await fx.db.collection('invitations').findOne({ _id: invitation.id as never }),
    );
    expect(stored).not.toContain(token.slice(token.indexOf('.') + 1));

    const inspected = await inspect(token);
    expect(inspected.status).toBe(200);
    expect(inspected.body).toEqual({
      success: true,
      data: {
        invitation: {
          email,
          role: 'MEMBER',
          tenantName: expect.stringContaining('Invite Works'),
          expiresAt: expect.any(String),
          existingAccount: false,
        },
      },
    });

    const browser = browserAt();
    const accepted = await accept(browser, { token, firstName: 'Ivy', lastName: 'Invitee' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      success: true,
      data: {
        outcome: 'SIGNED_IN',
        user: { email, role: 'MEMBER', tenantId: owner.tenantId, firstName: 'Ivy' },
      },
    });
    expect(browser.jar.get('svc_session')).toBeDefined();
    expect((await browser.request('GET', '/api/v1/tenant')).status).toBe(200);
    expect((await listPending()).map((i) => i.id)).not.toContain(invitation.id);

    // Single use: the token is spent for inspection and acceptance alike.
    expect(errorCode(await accept(browserAt(), { token, firstName: 'Ivy', lastName: 'Invitee' }))).toBe(
      'INVALID_OR_EXPIRED',
    );
    const again = await inspect(token);
    expect([again.status, errorCode(again)]).toEqual([400, 'INVALID_OR_EXPIRED']);
  });

  it('lets exactly one of two parallel acceptances win, and makes one user', async () => {
    const email = newAddress();
    const { token } = await invite(email);
    const answers = await Promise.all(
      [browserAt(), browserAt()].map((b) => accept(b, { token, firstName: 'Par', lastName: 'Allel' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.map(errorCode).filter(Boolean)).toEqual(['INVALID_OR_EXPIRED']);
    expect(await fx.db.collection('users').countDocuments({ email })).toBe(1);
  });

  it('answers an expired token 400 INVALID_OR_EXPIRED and no longer lists it', async () => {
    const { invitation, token } = await invite(newAddress());
    await fx.db
      .collection('invitations')
      .updateOne({ _id: invitation.id as never }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    for (const response of [
      await inspect(token),
      await accept(browserAt(), { token, firstName: 'E', lastName: 'X' }),
    ])
      expect([response.status, errorCode(response)]).toEqual([400, 'INVALID_OR_EXPIRED']);
    expect((await listPending()).map((i) => i.id)).not.toContain(invitation.id);
  });

  it('refuses unknown, malformed and tampered tokens alike, and a token in the URL unread', async () => {
    const { token } = await invite(newAddress());
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of ['inv_nope.abcdefabcdefabcdefabcdef', 'ml_abc', tampered]) {
      const response = await inspect(bad);
      expect([response.status, errorCode(response)]).toEqual([400, 'INVALID_OR_EXPIRED']);
    }
    const inUrl = await browserAt().post(`${V2}/invitations/inspect?token=${encodeURIComponent(token)}`, {
      body: { token },
    });
    expect([inUrl.status, errorCode(inUrl)]).toEqual([400, 'INVALID_OR_EXPIRED']);
    expect((await inspect(token)).status).toBe(200);
  });

  it('revokes a pending invitation: its link stops, a second revoke is 404', async () => {
    const { invitation, token } = await invite(newAddress());
    const revoked = await system.http('DELETE', `${INVITATIONS}/${invitation.id}`, {
      headers: bearer(ownerToken),
    });
    expect(revoked.status).toBe(204);
    expect(errorCode(await inspect(token))).toBe('INVALID_OR_EXPIRED');
    const again = await system.http('DELETE', `${INVITATIONS}/${invitation.id}`, {
      headers: bearer(ownerToken),
    });
    expect([again.status, errorCode(again)]).toEqual([404, 'INVITATION_NOT_FOUND']);
  });

  it('answers 409 for a pending invitation to the same address and for a current member', async () => {
    const email = newAddress();
    await invite(email);
    const twice = await system.http('POST', INVITATIONS, {
      headers: bearer(ownerToken),
      body: { email, role: 'ADMIN' },
    });
    expect([twice.status, errorCode(twice)]).toEqual([409, 'INVITATION_PENDING']);
    const member = await system.http('POST', INVITATIONS, {
      headers: bearer(ownerToken),
      body: { email: owner.email.toUpperCase(), role: 'MEMBER' },
    });
    expect([member.status, errorCode(member)]).toEqual([409, 'ALREADY_MEMBER']);
  });

  it('lets an ADMIN invite an ADMIN but not an OWNER; MEMBERs and client tokens get 403', async () => {
    const admin = await fx.addUser(owner.tenantId, 'ADMIN');
    const adminToken = (await fx.signIn(admin)).accessToken;
    await invite(newAddress(), 'ADMIN', adminToken);
    const ownerInvite = await system.http('POST', INVITATIONS, {
      headers: bearer(adminToken),
      body: { email: newAddress(), role: 'OWNER' },
    });
    expect([ownerInvite.status, errorCode(ownerInvite)]).toEqual([403, 'FORBIDDEN_ROLE']);

    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const memberToken = (await fx.signIn(member)).accessToken;
    const { clientId, clientSecret } = await fx.oauthClient(owner.tenantId, ['products:read']);
    const clientToken = await fx.clientToken(clientId, clientSecret);
    const { invitation } = await invite(newAddress());
    for (const token of [memberToken, clientToken]) {
      for (const [method, path, body] of [
        ['POST', INVITATIONS, { email: newAddress(), role: 'MEMBER' }],
        ['GET', INVITATIONS, undefined],
        ['DELETE', `${INVITATIONS}/${invitation.id}`, undefined],
      ] as const) {
        const response = await system.http(method, path, {
          headers: bearer(token),
          ...(body ? { body } : {}),
        });
        expect(response.status).toBe(403);
      }
    }
    expect((await listPending()).map((i) => i.id)).toContain(invitation.id);
  });

  it("answers another tenant's invitation id 404 and changes nothing", async () => {
    const other = await fx.tenantWithOwner('Other Works');
    const otherToken = (await fx.signIn(other)).accessToken;
    const { invitation, token } = await invite(newAddress());
    const response = await system.http('DELETE', `${INVITATIONS}/${invitation.id}`, {
      headers: bearer(otherToken),
    });
    expect([response.status, errorCode(response)]).toEqual([404, 'INVITATION_NOT_FOUND']);
    expect((await listPending(otherToken)).map((i) => i.id)).not.toContain(invitation.id);
    expect((await inspect(token)).status).toBe(200);
  });

  it('moves an account of another tenant only after confirmLink: true; its old sessions end', async () => {
    const elsewhere = await fx.tenantWithOwner('Elsewhere');
    const member = await fx.addUser(elsewhere.tenantId, 'MEMBER');
    const oldSession = await fx.signIn(member);
    const { token } = await invite(member.email, 'ADMIN');
    expect((await inspect(token)).body).toMatchObject({ data: { invitation: { existingAccount: true } } });

    const unconfirmed = await accept(browserAt(), { token });
    expect([unconfirmed.status, errorCode(unconfirmed)]).toEqual([409, 'LINK_CONFIRMATION_REQUIRED']);
    expect((await inspect(token)).status).toBe(200);

    const browser = browserAt();
    const linked = await accept(browser, { token, confirmLink: true });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      data: { outcome: 'SIGNED_IN', user: { id: member.userId, tenantId: owner.tenantId, role: 'ADMIN' } },
    });
    const old = await system.http('GET', '/api/v1/tenant', { headers: bearer(oldSession.accessToken) });
    expect(old.status).toBe(401);
    expect((await fx.refresh(oldSession.refreshToken)).status).toBe(401);
  });

  it("refuses to move an OWNER's account out of its company", async () => {
    const founder = await fx.tenantWithOwner('Founded');
    const { token } = await invite(founder.email);
    const response = await accept(browserAt(), { token, confirmLink: true });
    expect([response.status, errorCode(response)]).toEqual([409, 'ACCOUNT_OWNS_TENANT']);
    expect((await inspect(token)).status).toBe(200);
  });

  it('keeps the invitation usable when a new account is refused for its input', async () => {
    const { token } = await invite(newAddress());
    const nameless = await accept(browserAt(), { token });
    expect([nameless.status, errorCode(nameless)]).toEqual([400, 'USER_NAME_INVALID']);
    const weak = await accept(browserAt(), { token, firstName: 'W', lastName: 'P', password: 'short' });
    expect([weak.status, errorCode(weak)]).toEqual([400, 'PASSWORD_TOO_WEAK']);
    const ok = await accept(browserAt(), {
      token,
      firstName: 'Wendy',
      lastName: 'Password',
      password: 'a long enough passphrase',
    });
    expect(ok.status).toBe(200);
  });

  it('refuses acceptance at the seat limit with LIMIT_EXCEEDED, makes nobody, and the link works once a seat frees', async () => {
    const free = await fx.tenantWithOwner('Invite Full');
    await system.setTier(free.tenantId, 'SUPPLIER_FREE');
    const freeToken = (await fx.signIn(free)).accessToken;
    await fx.addUser(free.tenantId, 'MEMBER');
    const leaving = await fx.addUser(free.tenantId, 'MEMBER');
    const email = newAddress();
    const { token } = await invite(email, 'MEMBER', freeToken);
    const body = { token, firstName: 'Seat', lastName: 'Less', password: 'a long enough passphrase' };
    const refused = await accept(browserAt(), body);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'LIMIT_EXCEEDED', details: { limit: 'MAX_USERS', current: 3, available: 0 } },
    });
    expect(await fx.db.collection('users').countDocuments({ email })).toBe(0);
    const deactivated = await system.http('POST', `/api/v1/tenant/members/${leaving.userId}/deactivate`, {
      headers: bearer(freeToken),
    });
    expect(deactivated.status).toBe(200);
    const accepted = await accept(browserAt(), body);
    expect(accepted.status).toBe(200);
    expect(await fx.db.collection('users').countDocuments({ email, active: true })).toBe(1);
  });

  it('answers oversized and unknown fields 400 before any work', async () => {
    const long = 'x'.repeat(400);
    const cases: [string, string, unknown][] = [
      ['POST', INVITATIONS, { email: `${long}@example.com`, role: 'MEMBER' }],
      ['POST', INVITATIONS, { email: newAddress(), role: 'SUPERUSER' }],
      ['POST', INVITATIONS, { email: newAddress(), role: 'MEMBER', tenantId: owner.tenantId }],
      ['DELETE', `${INVITATIONS}/${'a'.repeat(65)}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const response = await system.http(method, path, {
        headers: bearer(ownerToken),
        ...(body === undefined ? {} : { body }),
      });
      expect(response.status).toBe(400);
    }
    for (const body of [
      { token: 'x'.repeat(300) },
      { token: 'inv_a.b', firstName: long },
      { token: 'inv_a.b', password: 'p'.repeat(2_000) },
      { token: 'inv_a.b', confirmLink: 'yes' },
      { token: 'inv_a.b', role: 'OWNER' },
    ]) {
      const response = await accept(browserAt(), body);
      expect(response.status).toBe(400);
    }
  });
});
