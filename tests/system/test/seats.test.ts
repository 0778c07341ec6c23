import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts } from '@tap/contracts';
import { createClient, isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { OPERATOR_TOKEN, startSystem, tlsOf, type System } from './support/system.js';
import { askToJoin, errorCode, gatedDomain, pendingRequestOf, usersCurrent } from './support/team.js';

/*
 * Seats (issue #22): MAX_USERS is charged on every path that makes a user active, against the
 * real entitlements, and the seat ledger stays consistent across crashes between its steps.
 */
describe('seats', () => {
  let system: System;
  let fx: IdentityFixtures;
  const bearer = async (account: Account) => ({
    authorization: `Bearer ${(await fx.signIn(account)).accessToken}`,
  });
  const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };

  beforeAll(async () => {
    system = await startSystem('seats', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  it('counts the OWNER: a new tenant holds one seat', async () => {
    const owner = await fx.tenantWithOwner('Counted');
    expect(await usersCurrent(system, await bearer(owner))).toBe(1);
  });

  it('stops a SUPPLIER_FREE tenant at 3 active users on join approval; the refused request stays pending', async () => {
    const owner = await fx.tenantWithOwner('Free Joins');
    await system.setTier(owner.tenantId, 'SUPPLIER_FREE');
    const asOwner = await bearer(owner);
    const domain = await gatedDomain(fx, owner.tenantId);
    const emails = [
      await askToJoin(system, domain),
      await askToJoin(system, domain),
      await askToJoin(system, domain),
    ];
    for (const email of emails.slice(0, 2)) {
      const request = await pendingRequestOf(system, asOwner, email);
      const approved = await system.http('POST', `/api/v1/tenant/join-requests/${request.id}/approve`, {
        headers: asOwner,
      });
      expect(approved.status).toBe(200);
    }
    const third = await pendingRequestOf(system, asOwner, emails[2]!);
    const refused = await system.http('POST', `/api/v1/tenant/join-requests/${third.id}/approve`, {
      headers: asOwner,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      error: {
        code: 'LIMIT_EXCEEDED',
        details: {
          limit: 'MAX_USERS',
          current: 3,
          requested: 1,
          available: 0,
          upgradeContext: { capability: 'MAX_USERS', upgradeAvailable: true },
        },
      },
    });
    // Nothing half-made: the request is still pending, its user still inactive, 3 seats.
    expect(await pendingRequestOf(system, asOwner, emails[2]!)).toMatchObject({
      id: third.id,
      status: 'PENDING',
    });
    const user = await fx.db.collection('users').findOne({ _id: third.userId as never });
    expect(user?.['active']).toBe(false);
    expect(await usersCurrent(system, asOwner)).toBe(3);
    const can = await system.http('POST', '/api/v1/entitlements/can', {
      headers: asOwner,
      body: { action: 'INVITE_USER', resourceCount: 1 },
    });
    expect(can.body).toMatchObject({ data: { allowed: false, reason: 'LIMIT_EXCEEDED' } });
  });

  it('gives exactly one of 10 simultaneous approvals the last seat', async () => {
    const owner = await fx.tenantWithOwner('Race');
    await system.setTier(owner.tenantId, 'SUPPLIER_FREE');
    const asOwner = await bearer(owner);
    await fx.addUser(owner.tenantId, 'MEMBER');
    const domain = await gatedDomain(fx, owner.tenantId);
    const requests = [];
    for (let i = 0; i < 10; i += 1)
      requests.push(await pendingRequestOf(system, asOwner, await askToJoin(system, domain)));
    const answers = await Promise.all(
      requests.map((r) =>
        system.http('POST', `/api/v1/tenant/join-requests/${r.id}/approve`, { headers: asOwner }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 403).map(errorCode)).toEqual(Array(9).fill('LIMIT_EXCEEDED'));
    const active = await fx.db.collection('users').countDocuments({ tenantId: owner.tenantId, active: true });
    expect(active).toBe(3);
    expect(await usersCurrent(system, asOwner)).toBe(3);
  });

  it("refuses the operator's CreateUser over the limit and creates nothing", async () => {
    const owner = await fx.tenantWithOwner('Operator Full');
    await system.setTier(owner.tenantId, 'SUPPLIER_FREE');
    await fx.addUser(owner.tenantId, 'MEMBER');
    await fx.addUser(owner.tenantId, 'ADMIN');
    const email = `over-${Date.now()}@example.com`;
    const error = await unaryCall(
      fx.identity,
      'CreateUser',
      {
        tenantId: owner.tenantId,
        user: { email, firstName: 'O', lastName: 'Ver', password: 'a passphrase long enough' },
        role: 'MEMBER',
      },
      operator,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRemoteCallError(error) && error.reason).toBe('LIMIT_EXCEEDED');
    expect(await fx.db.collection('users').findOne({ email })).toBeNull();
  });

  it('frees the seat of a member deactivated, whose token answers 401; reactivation takes a seat and stops at the limit', async () => {
    const owner = await fx.tenantWithOwner('Free Team');
    await system.setTier(owner.tenantId, 'SUPPLIER_FREE');
    const asOwner = await bearer(owner);
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    await fx.addUser(owner.tenantId, 'MEMBER');
    const asMember = await bearer(member);
    expect((await system.http('GET', '/api/v1/tenant', { headers: asMember })).status).toBe(200);

    const deactivated = await system.http('POST', `/api/v1/tenant/members/${member.userId}/deactivate`, {
      headers: asOwner,
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({
      data: { member: { id: member.userId, status: 'DEACTIVATED' } },
    });
    // The very next request with the member's token: refused (the revocation list, no cache).
    expect((await system.http('GET', '/api/v1/tenant', { headers: asMember })).status).toBe(401);
    expect((await fx.login(member)).status).toBe(401);
    expect(await usersCurrent(system, asOwner)).toBe(2);

    await fx.addUser(owner.tenantId, 'MEMBER');
    const refused = await system.http('POST', `/api/v1/tenant/members/${member.userId}/reactivate`, {
      headers: asOwner,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: { code: 'LIMIT_EXCEEDED', details: { limit: 'MAX_USERS', current: 3, available: 0 } },
    });
    const still = await fx.db.collection('users').findOne({ _id: member.userId as never });
    expect(still?.['active']).toBe(false);

    await system.setTier(owner.tenantId, 'SUPPLIER_PLUS');
    const reactivated = await system.http('POST', `/api/v1/tenant/members/${member.userId}/reactivate`, {
      headers: asOwner,
    });
    expect(reactivated.body).toMatchObject({ data: { member: { status: 'ACTIVE' } } });
    expect(await usersCurrent(system, asOwner)).toBe(4);
    expect((await fx.login(member)).status).toBe(200);
  });

  it('keeps every user after a downgrade below the count and admits nobody new', async () => {
    const owner = await fx.tenantWithOwner('Downgraded');
    await system.setTier(owner.tenantId, 'SUPPLIER_PLUS');
    const users = [];
    for (let i = 0; i < 4; i += 1) users.push(await fx.addUser(owner.tenantId, 'MEMBER'));
    await system.setTier(owner.tenantId, 'SUPPLIER_FREE');
    const asOwner = await bearer(owner);
    expect(await usersCurrent(system, asOwner)).toBe(5);
    expect((await fx.login(users[3]!)).status).toBe(200);
    const error = await fx.addUser(owner.tenantId, 'MEMBER').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRemoteCallError(error) && error.reason).toBe('LIMIT_EXCEEDED');
  });

  describe('crash consistency and reconciliation', () => {
    /** Entitlements' seat RPCs as identity calls them: its certificate and a service token it signed. */
    const asIdentity = async (tenantId: string) => {
      const client = createClient(
        contracts().entitlements.EntitlementsService,
        system.addresses.entitlements,
        await tlsOf('identity'),
      );
      const token = await fx.forge({
        subject: 'identity',
        kind: 'service',
        tenantId,
        role: '',
        scopes: [],
        sessionId: 'service:identity',
      });
      return { client, auth: { authorization: `Bearer ${token}` } };
    };
    const oldIntent = (tenantId: string, userId: string) =>
      fx.db.collection('seat_intents').insertOne({
        _id: `${tenantId}:${userId}` as never,
        tenantId,
        userId,
        createdAt: new Date(Date.now() - 3_600_000),
      });

    it('frees a seat taken for a user that never became active (identity stopped between the steps)', async () => {
      const owner = await fx.tenantWithOwner('Crashed Take');
      await system.setTier(owner.tenantId, 'SUPPLIER_FREE');
      const asOwner = await bearer(owner);
      // The first two steps of an activation: the intent, the seat; then the process is gone.
      const ghost = 'user-that-never-was';
      await oldIntent(owner.tenantId, ghost);
      const { client, auth } = await asIdentity(owner.tenantId);
      expect(await unaryCall(client, 'TakeSeat', { userId: ghost }, auth)).toMatchObject({ granted: true });
      expect(await usersCurrent(system, asOwner)).toBe(2);

      expect(await system.identity.reconcileSeats()).toBe(1);
      expect(await usersCurrent(system, asOwner)).toBe(1);
      expect(await fx.db.collection('seat_intents').countDocuments({ tenantId: owner.tenantId })).toBe(0);
      client.close();
    });

    it('gives a seat to a user made active whose seat was lost (entitlements stopped after the activation)', async () => {
      const owner = await fx.tenantWithOwner('Crashed Count');
      const member = await fx.addUser(owner.tenantId, 'MEMBER');
      const asOwner = await bearer(owner);
      const { client, auth } = await asIdentity(owner.tenantId);
      await unaryCall(client, 'ReleaseSeat', { userId: member.userId }, auth);
      await oldIntent(owner.tenantId, member.userId);
      expect(await usersCurrent(system, asOwner)).toBe(1);

      await system.identity.reconcileSeats();
      expect(await usersCurrent(system, asOwner)).toBe(2);
      client.close();
    });

    it('leaves an intent younger than the grace alone (an activation may still be in flight)', async () => {
      const owner = await fx.tenantWithOwner('In Flight');
      await fx.db.collection('seat_intents').insertOne({
        _id: `${owner.tenantId}:fresh` as never,
        tenantId: owner.tenantId,
        userId: 'fresh',
        createdAt: new Date(),
      });
      await system.identity.reconcileSeats();
      expect(await fx.db.collection('seat_intents').countDocuments({ tenantId: owner.tenantId })).toBe(1);
      await fx.db.collection('seat_intents').deleteMany({ tenantId: owner.tenantId });
    });

    it('migrates tenants from before the ledger: their active users get seats, idempotently', async () => {
      const owner = await fx.tenantWithOwner('Legacy');
      await fx.addUser(owner.tenantId, 'MEMBER');
      await fx.addUser(owner.tenantId, 'ADMIN');
      // As before the ledger: no seat documents, no count.
      await system.entitlementsDb.collection('seats').deleteMany({ tenantId: owner.tenantId });
      await system.entitlementsDb
        .collection('usage')
        .updateOne({ _id: owner.tenantId as never }, { $unset: { 'counters.MAX_USERS': '' } });
      const asOwner = await bearer(owner);
      expect(await usersCurrent(system, asOwner)).toBe(0);

      await system.identity.migrateSeats();
      expect(await usersCurrent(system, asOwner)).toBe(3);
      await system.identity.migrateSeats();
      expect(await usersCurrent(system, asOwner)).toBe(3);
      expect(
        await system.entitlementsDb.collection('seats').countDocuments({ tenantId: owner.tenantId }),
      ).toBe(3);
    });
  });
});
