import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type System } from './support/system.js';
import { askToJoin, errorCode, gatedDomain, pendingRequestOf } from './support/team.js';

interface MemberJson {
  id: string;
  email: string;
  role: string;
  status: string;
  lastSignInAt: string | null;
  createdAt: string;
}

/* Team management (issue #22, TEAM-API "Members"): who may change whom, and every bad input. */
describe('members', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let asOwner: Record<string, string>;
  const bearer = async (account: Account) => ({
    authorization: `Bearer ${(await fx.signIn(account)).accessToken}`,
  });
  const members = async (headers: Record<string, string>) => {
    const listed = await system.http('GET', '/api/v1/tenant/members', { headers });
    expect(listed.status).toBe(200);
    return (listed.body as { data: { members: MemberJson[] } }).data.members;
  };
  const patchRole = (headers: Record<string, string>, userId: string, role: unknown) =>
    system.http('PATCH', `/api/v1/tenant/members/${userId}`, { headers, body: { role } });

  beforeAll(async () => {
    system = await startSystem('members', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Team');
    await system.setTier(owner.tenantId, 'CORE');
    asOwner = await bearer(owner);
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  it('lists members with role, status and last sign-in; a join awaiting approval is not one', async () => {
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const joiner = await askToJoin(system, await gatedDomain(fx, owner.tenantId));
    const listed = await members(asOwner);
    expect(listed.find((m) => m.id === owner.userId)).toMatchObject({
      role: 'OWNER',
      status: 'ACTIVE',
      lastSignInAt: expect.any(String),
    });
    expect(listed.find((m) => m.id === member.userId)).toMatchObject({ role: 'MEMBER', lastSignInAt: null });
    expect(listed.find((m) => m.email === joiner)).toBeUndefined();
    expect(listed.every((m) => !('tenantId' in m) && !('passwordHash' in m))).toBe(true);
  });

  it('changes a role; the last OWNER can be neither demoted nor deactivated (409 LAST_OWNER)', async () => {
    const admin = await fx.addUser(owner.tenantId, 'MEMBER');
    const promoted = await patchRole(asOwner, admin.userId, 'ADMIN');
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ data: { member: { id: admin.userId, role: 'ADMIN' } } });
    const demoteSelf = await patchRole(asOwner, owner.userId, 'ADMIN');
    expect([demoteSelf.status, errorCode(demoteSelf)]).toEqual([409, 'LAST_OWNER']);
    const deactivateSelf = await system.http('POST', `/api/v1/tenant/members/${owner.userId}/deactivate`, {
      headers: asOwner,
    });
    expect([deactivateSelf.status, errorCode(deactivateSelf)]).toEqual([409, 'LAST_OWNER']);
    // With a second OWNER, the first may step down.
    const coOwner = await fx.addUser(owner.tenantId, 'MEMBER');
    expect((await patchRole(asOwner, coOwner.userId, 'OWNER')).status).toBe(200);
    expect((await patchRole(asOwner, coOwner.userId, 'MEMBER')).status).toBe(200);
  });

  it('refuses an ADMIN touching an OWNER or granting OWNER (403 FORBIDDEN_ROLE), and changes nothing', async () => {
    const admin = await fx.addUser(owner.tenantId, 'ADMIN');
    const asAdmin = await bearer(admin);
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    for (const response of [
      await patchRole(asAdmin, owner.userId, 'MEMBER'),
      await patchRole(asAdmin, member.userId, 'OWNER'),
      await system.http('POST', `/api/v1/tenant/members/${owner.userId}/deactivate`, { headers: asAdmin }),
    ])
      expect([response.status, errorCode(response)]).toEqual([403, 'FORBIDDEN_ROLE']);
    expect((await patchRole(asAdmin, member.userId, 'ADMIN')).status).toBe(200);
    expect((await members(asOwner)).find((m) => m.id === owner.userId)).toMatchObject({
      role: 'OWNER',
      status: 'ACTIVE',
    });
  });

  it('refuses a MEMBER (403 ROLE_FORBIDDEN) and an OAuth client token (403 insufficient_scope) on every team route', async () => {
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const asMember = await bearer(member);
    const client = await fx.oauthClient(owner.tenantId, ['products:read']);
    const asClient = {
      authorization: `Bearer ${await fx.clientToken(client.clientId, client.clientSecret)}`,
    };
    const target = member.userId;
    const calls = (headers: Record<string, string>) => [
      system.http('GET', '/api/v1/tenant/members', { headers }),
      patchRole(headers, target, 'ADMIN'),
      system.http('POST', `/api/v1/tenant/members/${target}/deactivate`, { headers }),
      system.http('POST', `/api/v1/tenant/members/${target}/reactivate`, { headers }),
      system.http('POST', `/api/v1/tenant/join-requests/${target}/reject`, { headers }),
    ];
    for (const response of await Promise.all(calls(asMember))) expect(response.status).toBe(403);
    for (const response of await Promise.all(calls(asClient))) {
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: 'insufficient_scope' });
    }
    for (const response of await Promise.all(calls({}))) expect(response.status).toBe(401);
    expect((await members(asOwner)).find((m) => m.id === target)).toMatchObject({
      role: 'MEMBER',
      status: 'ACTIVE',
    });
  });

  it("answers unknown ids and another tenant's members with 404, and changes nothing", async () => {
    const other = await fx.tenantWithOwner('Other Team');
    const theirs = await fx.addUser(other.tenantId, 'MEMBER');
    for (const userId of [theirs.userId, other.userId, 'no-such-user']) {
      const responses = [
        await patchRole(asOwner, userId, 'ADMIN'),
        await system.http('POST', `/api/v1/tenant/members/${userId}/deactivate`, { headers: asOwner }),
        await system.http('POST', `/api/v1/tenant/members/${userId}/reactivate`, { headers: asOwner }),
      ];
      for (const response of responses)
        expect([response.status, errorCode(response)]).toEqual([404, 'USER_NOT_FOUND']);
    }
    expect((await fx.login(theirs)).status).toBe(200);
    const asOther = await bearer(other);
    expect((await members(asOther)).find((m) => m.id === theirs.userId)).toMatchObject({
      role: 'MEMBER',
      status: 'ACTIVE',
    });
  });

  it('rejects bad input with a 400 in the general shape', async () => {
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    for (const body of [
      { role: 'SUPERUSER' },
      { role: 'owner' },
      { role: 7 },
      {},
      { role: 'ADMIN', extra: 1 },
    ]) {
      const response = await system.http('PATCH', `/api/v1/tenant/members/${member.userId}`, {
        headers: asOwner,
        body,
      });
      expect([response.status, errorCode(response)]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const long = await patchRole(asOwner, 'x'.repeat(65), 'ADMIN');
    expect(long.status).toBe(400);
    const huge = await patchRole(asOwner, member.userId, 'A'.repeat(100_000));
    expect([400, 413]).toContain(huge.status);
  });

  it('deactivates idempotently and reactivates a deactivated member', async () => {
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const path = `/api/v1/tenant/members/${member.userId}`;
    expect((await system.http('POST', `${path}/deactivate`, { headers: asOwner })).status).toBe(200);
    const again = await system.http('POST', `${path}/deactivate`, { headers: asOwner });
    expect(again.body).toMatchObject({ data: { member: { status: 'DEACTIVATED' } } });
    const back = await system.http('POST', `${path}/reactivate`, { headers: asOwner });
    expect(back.body).toMatchObject({ data: { member: { status: 'ACTIVE' } } });
    expect((await fx.login(member)).status).toBe(200);
  });

  it('rejects a join request: it leaves the queue, cannot be approved after, and another tenant cannot touch it', async () => {
    const domain = await gatedDomain(fx, owner.tenantId);
    const email = await askToJoin(system, domain);
    const request = await pendingRequestOf(system, asOwner, email);
    const other = await fx.tenantWithOwner('Stranger');
    const asOther = await bearer(other);
    const foreign = await system.http('POST', `/api/v1/tenant/join-requests/${request.id}/reject`, {
      headers: asOther,
    });
    expect([foreign.status, errorCode(foreign)]).toEqual([404, 'JOIN_REQUEST_NOT_FOUND']);

    const rejected = await system.http('POST', `/api/v1/tenant/join-requests/${request.id}/reject`, {
      headers: asOwner,
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ data: { request: { id: request.id, email, status: 'REJECTED' } } });
    const approve = await system.http('POST', `/api/v1/tenant/join-requests/${request.id}/approve`, {
      headers: asOwner,
    });
    expect(approve.status).toBe(404);
    const twice = await system.http('POST', `/api/v1/tenant/join-requests/${request.id}/reject`, {
      headers: asOwner,
    });
    expect(twice.status).toBe(404);
    const unknown = await system.http('POST', '/api/v1/tenant/join-requests/no-such-request/reject', {
      headers: asOwner,
    });
    expect([unknown.status, errorCode(unknown)]).toEqual([404, 'JOIN_REQUEST_NOT_FOUND']);
  });
});
