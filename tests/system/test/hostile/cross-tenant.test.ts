import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { unaryCall } from '@tap/grpc-kit';
import { waitFor } from '@tap/testkit';
import { Browser } from '../support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from '../support/identity-fixtures.js';
import {
  OPERATOR_TOKEN,
  startSystem,
  SYSTEM_ORIGIN,
  type HttpResponse,
  type System,
} from '../support/system.js';

/*
 * Another tenant's ids in our requests: an OAuth client, a join request, a success plan, an
 * invitation, a session, a member whose sessions would end. The
 * tenant is always the token's, so each is answered like an id that does not exist: 404 and
 * no data, and the other tenant's object is unchanged.
 */

const V2 = '/api/v1/auth/v2';
const FUTURE = '2099-01-01T00:00:00Z';

describe('cross-tenant ids', () => {
  let system: System;
  let fx: IdentityFixtures;
  let mallory: Account;
  let victim: Account;
  let asMallory: Record<string, string>;
  let asVictim: Record<string, string>;

  beforeAll(async () => {
    system = await startSystem('hostile_cross_tenant', { trustProxyHops: 1, countUsage: true });
    fx = await openIdentityFixtures(system);
    mallory = await fx.tenantWithOwner('Mallory Goods');
    victim = await fx.tenantWithOwner('Victim Goods');
    await system.setTier(mallory.tenantId, 'CORE');
    await system.setTier(victim.tenantId, 'CORE');
    asMallory = { authorization: `Bearer ${(await fx.signIn(mallory)).accessToken}` };
    asVictim = { authorization: `Bearer ${(await fx.signIn(victim)).accessToken}` };
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  /** A 404 in the general shape that carries nothing of the object asked for. */
  const expectNotFound = (response: HttpResponse, secret?: string) => {
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
    expect((response.body as { data?: unknown }).data).toBeUndefined();
    if (secret) expect(JSON.stringify(response.body)).not.toContain(secret);
  };

  it("shows a tenant only its own usage history; another tenant's id in the query is refused", async () => {
    const history = async (headers: Record<string, string>, query = '') =>
      system.http('GET', `/api/v1/entitlements/usage/history?key=MAX_ACTIVE_PRODUCTS${query}`, { headers });
    const lastOf = (response: HttpResponse) =>
      (response.body as { data: { points: { value: number }[] } }).data.points.at(-1)?.value;
    for (const productId of ['v1', 'v2']) {
      await system.publish({
        id: randomUUID(),
        type: 'product.created',
        tenantId: victim.tenantId,
        occurredAt: new Date().toISOString(),
        subject: { productId },
        data: {},
      });
    }
    await waitFor('the victim products counted', async () => lastOf(await history(asVictim)) === 2, {
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    expect(lastOf(await history(asMallory))).toBe(0);
    const smuggled = await history(asMallory, `&tenantId=${victim.tenantId}`);
    expect(smuggled.status).toBe(400);
    expect(smuggled.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    expect(JSON.stringify(smuggled.body)).not.toContain('"points"');
    expect(lastOf(await history(asVictim))).toBe(2);
  });

  it("answers another tenant's OAuth client like an unknown one, and the client keeps working", async () => {
    const theirs = await fx.oauthClient(victim.tenantId, ['products:read']);
    const path = `/api/v1/oauth/clients/${theirs.clientId}`;
    const rotate = await system.http('POST', `${path}/rotate`, { headers: asMallory });
    expectNotFound(rotate, theirs.clientSecret);
    const unknownRotate = await system.http('POST', '/api/v1/oauth/clients/no-such-client/rotate', {
      headers: asMallory,
    });
    expect(unknownRotate.status).toBe(rotate.status);
    expect((unknownRotate.body as { error: { code: string } }).error.code).toBe(
      (rotate.body as { error: { code: string } }).error.code,
    );
    expectNotFound(await system.http('DELETE', path, { headers: asMallory }));
    const listed = await system.http('GET', '/api/v1/oauth/clients', { headers: asMallory });
    expect((listed.body as { data: { clients: unknown[] } }).data.clients).toEqual([]);
    // Untouched: the old secret still issues tokens, and the owner still lists it.
    expect(await fx.clientToken(theirs.clientId, theirs.clientSecret)).toEqual(expect.any(String));
    const victimList = await system.http('GET', '/api/v1/oauth/clients', { headers: asVictim });
    expect((victimList.body as { data: { clients: { clientId: string }[] } }).data.clients).toEqual([
      expect.objectContaining({ clientId: theirs.clientId }),
    ]);
  });

  it("answers another tenant's join request with 404, and it stays pending", async () => {
    const gated = `gated-${Date.now()}.example`;
    await unaryCall(
      fx.identity,
      'ClaimJoinDomain',
      { tenantId: victim.tenantId, domain: gated },
      { authorization: `Operator ${OPERATOR_TOKEN}` },
    );
    const email = `joiner@${gated}`;
    const joiner = new Browser(system, undefined, '203.0.113.77');
    const since = system.mail.messages.length;
    const signup = await joiner.post(`${V2}/signup`, {
      body: { email, companyName: 'Ignored', firstName: 'Jo', lastName: 'Joiner' },
    });
    expect(signup.status).toBe(200);
    const message = await system.mail.waitForMessage(email, { since, timeoutMs: 10_000 });
    const link = /https:\/\/\S+/.exec(message.text)?.[0] ?? '';
    expect(link.startsWith(`${SYSTEM_ORIGIN}/auth/magic-link#token=`)).toBe(true);
    const redeemed = await joiner.post(`${V2}/magic-link/redeem`, {
      body: { token: new URL(link).hash.slice('#token='.length) },
    });
    expect(redeemed.body).toMatchObject({ status: 'pending_approval' });

    const pending = await system.http('GET', '/api/v1/tenant/join-requests', { headers: asVictim });
    const requests = (pending.body as { data: { requests: { id: string; email: string }[] } }).data.requests;
    const request = requests.find((r) => r.email === email)!;
    expect(request).toBeDefined();

    expectNotFound(
      await system.http('POST', `/api/v1/tenant/join-requests/${request.id}/approve`, { headers: asMallory }),
      email,
    );
    const mine = await system.http('GET', '/api/v1/tenant/join-requests', { headers: asMallory });
    expect((mine.body as { data: { requests: unknown[] } }).data.requests).toEqual([]);
    const after = await system.http('GET', '/api/v1/tenant/join-requests', { headers: asVictim });
    expect(
      (after.body as { data: { requests: { id: string; status: string }[] } }).data.requests.find(
        (r) => r.id === request.id,
      )?.status,
    ).toBe('PENDING');
  });

  it("answers another tenant's member with 404 on every team route, and the member is unchanged", async () => {
    const theirs = await fx.addUser(victim.tenantId, 'MEMBER');
    const base = `/api/v1/tenant/members/${theirs.userId}`;
    expectNotFound(
      await system.http('PATCH', base, { headers: asMallory, body: { role: 'ADMIN' } }),
      theirs.email,
    );
    expectNotFound(await system.http('POST', `${base}/deactivate`, { headers: asMallory }), theirs.email);
    expectNotFound(await system.http('POST', `${base}/reactivate`, { headers: asMallory }), theirs.email);
    expectNotFound(
      await system.http('POST', `/api/v1/tenant/join-requests/${theirs.userId}/reject`, {
        headers: asMallory,
      }),
    );
    const mine = await system.http('GET', '/api/v1/tenant/members', { headers: asMallory });
    expect(JSON.stringify(mine.body)).not.toContain(theirs.email);
    const victimList = await system.http('GET', '/api/v1/tenant/members', { headers: asVictim });
    expect(
      (
        victimList.body as { data: { members: { id: string; role: string; status: string }[] } }
      ).data.members.find((m) => m.id === theirs.userId),
    ).toMatchObject({ role: 'MEMBER', status: 'ACTIVE' });
    expect((await fx.login(theirs)).status).toBe(200);
  });

  it("answers a renewal of another tenant's success plan with 404, and neither plan changes", async () => {
    const created = await system.http('POST', '/api/v1/tenant/adoption/success-plan', {
      headers: asVictim,
      body: {
        title: 'Victim plan',
        targetDate: FUTURE,
        objectives: [{ label: 'Start', milestoneKeys: ['first_product_created'] }],
      },
    });
    expect(created.status).toBe(201);
    const plan = (created.body as { data: { id: string } }).data;
    const renew = await system.http('POST', '/api/v1/tenant/adoption/success-plan/renew', {
      headers: asMallory,
      body: { fromPlanId: plan.id, targetDate: FUTURE },
    });
    expectNotFound(renew, 'Victim plan');
    const mine = await system.http('GET', '/api/v1/tenant/adoption/success-plan', { headers: asMallory });
    expect(mine.body).toEqual({ success: true, data: null });
    const theirs = await system.http('GET', '/api/v1/tenant/adoption/success-plan', { headers: asVictim });
    expect(theirs.body).toMatchObject({ data: { id: plan.id, status: 'ACTIVE', title: 'Victim plan' } });
  });

  it("answers another tenant's invitation, session and member with 404, and none of them changes", async () => {
    const email = `invited-${Date.now()}@victim.example`;
    const since = system.mail.messages.length;
    const invited = await system.http('POST', '/api/v1/tenant/invitations', {
      headers: asVictim,
      body: { email, role: 'ADMIN' },
    });
    expect(invited.status).toBe(201);
    const invitation = (invited.body as { data: { invitation: { id: string } } }).data.invitation;
    const message = await system.mail.waitForMessage(email, { since, timeoutMs: 10_000 });
    const token = /#token=(\S+)/.exec(message.text)?.[1] ?? '';

    const revoke = await system.http('DELETE', `/api/v1/tenant/invitations/${invitation.id}`, {
      headers: asMallory,
    });
    expectNotFound(revoke, email);
    const unknown = await system.http('DELETE', '/api/v1/tenant/invitations/no-such-invitation', {
      headers: asMallory,
    });
    expect([unknown.status, (unknown.body as { error: { code: string } }).error.code]).toEqual([
      404,
      (revoke.body as { error: { code: string } }).error.code,
    ]);
    const mine = await system.http('GET', '/api/v1/tenant/invitations', { headers: asMallory });
    expect((mine.body as { data: { invitations: unknown[] } }).data.invitations).toEqual([]);
    const theirs = await system.http('GET', '/api/v1/tenant/invitations', { headers: asVictim });
    expect((theirs.body as { data: { invitations: { id: string }[] } }).data.invitations).toEqual([
      expect.objectContaining({ id: invitation.id, status: 'PENDING' }),
    ]);
    const inspect = await new Browser(system, undefined, '203.0.113.78').post(`${V2}/invitations/inspect`, {
      body: { token },
    });
    expect(inspect.status).toBe(200);

    const sessions = await system.http('GET', '/api/v1/auth/sessions', { headers: asVictim });
    const [session] = (sessions.body as { data: { sessions: { id: string }[] } }).data.sessions;
    expectNotFound(
      await system.http('DELETE', `/api/v1/auth/sessions/${session!.id}`, { headers: asMallory }),
    );
    const members = await system.http('DELETE', `/api/v1/tenant/members/${victim.userId}/sessions`, {
      headers: asMallory,
    });
    expectNotFound(members, victim.email);
    // The victim is still signed in.
    expect((await system.http('GET', '/api/v1/tenant', { headers: asVictim })).status).toBe(200);
  });
});
