import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentials, type Client } from '@grpc/grpc-js';
import { contracts } from '@tap/contracts';
import { createClient, GrpcStatus, isRemoteCallError, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { createCertificateAuthority, testIdentity } from '@tap/testkit';
import { openIdentityFixtures, type IdentityFixtures } from '../support/identity-fixtures.js';
import { OPERATOR_TOKEN, startSystem, tlsOf, type System } from '../support/system.js';

// Hostile callers inside the network: every internal RPC knows its caller's service identity (the
// client certificate) and refuses anyone the allowlist does not name for it, before any handler.
const identityService = contracts().identity.IdentityService;
const entitlementsService = contracts().entitlements.EntitlementsService;
const adoptionService = contracts().adoption.AdoptionService;
const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };

async function statusOf(call: Promise<unknown>): Promise<number | string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    return isRemoteCallError(error) ? error.grpcStatus : String(error);
  }
}

describe('internal RPCs called without or with the wrong service identity', () => {
  let system: System;
  let fx: IdentityFixtures;
  const opened: Client[] = [];
  const as = async <C extends Client>(
    Ctor: Parameters<typeof createClient<C>>[0],
    address: string,
    service: string,
  ): Promise<C> => {
    const client = createClient(Ctor, address, await tlsOf(service));
    opened.push(client);
    return client;
  };

  beforeAll(async () => {
    system = await startSystem('hostile_internal_rpc');
    fx = await openIdentityFixtures(system);
  });
  afterAll(async () => {
    for (const client of opened) client.close();
    await fx?.close();
    await system?.stop();
  });

  const ssoSignIn = (email: string) => ({
    provider: 'enterprise',
    subject: `sub-${email}`,
    email,
    emailVerified: true,
    givenName: 'Mallory',
    familyName: 'Inside',
  });

  it('SsoSignIn from any service but the gateway is PERMISSION_DENIED, and creates nobody', async () => {
    const email = `mallory-${Date.now()}@hostile.example`;
    for (const service of ['adoption', 'entitlements', 'identity', 'operator']) {
      const client = await as(identityService, system.addresses.identity, service);
      expect([service, await statusOf(unaryCall(client, 'SsoSignIn', ssoSignIn(email)))]).toEqual([
        service,
        GrpcStatus.PERMISSION_DENIED,
      ]);
    }
    expect(await fx.db.collection('users').countDocuments({ email })).toBe(0);
  });

  it('Login and RedeemMagicLink from a back-end service are PERMISSION_DENIED', async () => {
    const owner = await fx.tenantWithOwner('Hostile Login');
    const adoption = await as(identityService, system.addresses.identity, 'adoption');
    expect(
      await statusOf(
        unaryCall(adoption, 'Login', { email: owner.email, password: owner.password, channel: '' }),
      ),
    ).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(await statusOf(unaryCall(adoption, 'RedeemMagicLink', { token: 'x'.repeat(43) }))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
  });

  it("operator RPCs refuse the gateway's certificate even with the operator credential", async () => {
    const owner = await fx.tenantWithOwner('Hostile Operator');
    const gateway = await as(identityService, system.addresses.identity, 'gateway');
    const issue = { tenantId: owner.tenantId, role: 'OWNER', scopes: [], subject: '' };
    expect(await statusOf(unaryCall(gateway, 'IssueAccessToken', issue, operator))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    expect(
      await statusOf(
        unaryCall(gateway, 'SetUserPassword', { email: owner.email, password: 'p'.repeat(20) }, operator),
      ),
    ).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(await statusOf(unaryCall(gateway, 'RotateSigningKey', {}, operator))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    const entitlements = await as(entitlementsService, system.addresses.entitlements, 'gateway');
    expect(
      await statusOf(
        unaryCall(entitlements, 'SetTier', { tenantId: owner.tenantId, tierCode: 'ENTERPRISE' }, operator),
      ),
    ).toBe(GrpcStatus.PERMISSION_DENIED);
  });

  it("RPCs that take the operator naming a tenant refuse the gateway's certificate with the operator token, and answer the operator's", async () => {
    const victim = await fx.tenantWithOwner('Hostile Operator Victim');
    const client = await fx.oauthClient(victim.tenantId, ['products:read']);
    const gateway = await as(identityService, system.addresses.identity, 'gateway');
    const theOperator = await as(identityService, system.addresses.identity, 'operator');
    const tenantId = victim.tenantId;
    const calls: ReadonlyArray<readonly [string, object]> = [
      ['ListJoinRequests', { tenantId }],
      ['ApproveJoinRequest', { tenantId, id: 'no-such-request' }],
      ['ListOAuthClients', { tenantId }],
      ['CreateOAuthClient', { tenantId, name: 'mallory', scopes: ['products:read'] }],
      ['RotateOAuthClientSecret', { tenantId, clientId: client.clientId }],
      ['DeleteOAuthClient', { tenantId, clientId: client.clientId }],
    ];
    // A caller that also writes the interceptor's peer metadata itself changes nothing.
    const forged = { ...operator, 'tap-peer-service': 'operator' };
    for (const [method, request] of calls) {
      for (const metadata of [operator, forged]) {
        const answer = await statusOf(
          unaryCall(gateway, method as 'ListOAuthClients', request as never, metadata),
        );
        expect([method, answer]).toEqual([method, GrpcStatus.PERMISSION_DENIED]);
      }
    }
    expect(await fx.db.collection('oauth_clients').countDocuments({ tenantId, name: 'mallory' })).toBe(0);
    // The operator's own certificate with the token is served (the client still exists: nothing above changed it).
    const listed = await unaryCall(theOperator, 'ListOAuthClients', { tenantId }, operator);
    expect(listed.clients.map((c) => c.clientId)).toContain(client.clientId);
    expect(await statusOf(unaryCall(theOperator, 'ListJoinRequests', { tenantId }, operator))).toBe('OK');
    // Entitlements holds no operator token: SetTier is the operator's certificate alone (allowlist),
    // refused to the gateway's above and served to the operator's.
    const operatorEntitlements = await as(entitlementsService, system.addresses.entitlements, 'operator');
    expect(
      await statusOf(unaryCall(operatorEntitlements, 'SetTier', { tenantId, tierCode: 'CORE' }, operator)),
    ).toBe('OK');
    // And the operator's certificate without the token is refused.
    expect(await statusOf(unaryCall(theOperator, 'ListOAuthClients', { tenantId }))).not.toBe('OK');
    expect(
      await statusOf(
        unaryCall(theOperator, 'CreateUser', {
          tenantId,
          user: { email: 'x@y.example' },
          role: 'MEMBER',
        }),
      ),
    ).not.toBe('OK');
  });

  it('only the gateway reads tiers and reserves quota; adoption (which learns tiers by event) may do neither', async () => {
    const owner = await fx.tenantWithOwner('Hostile Reserve');
    const { accessToken } = await fx.signIn(owner);
    const bearer = { authorization: `Bearer ${accessToken}` };
    const adoption = await as(entitlementsService, system.addresses.entitlements, 'adoption');
    expect(await statusOf(unaryCall(adoption, 'GetTier', {}, bearer))).toBe(GrpcStatus.PERMISSION_DENIED);
    const reserve = { action: 'BULK_UPLOAD', units: 1, idempotencyKey: 'hostile-1' };
    expect(await statusOf(unaryCall(adoption, 'Reserve', reserve, bearer))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    const gateway = await as(entitlementsService, system.addresses.entitlements, 'gateway');
    expect(await statusOf(unaryCall(gateway, 'Reserve', reserve, bearer))).toBe('OK');
  });

  it("only identity takes or frees seats, and only with its own service token: the gateway's certificate or a user's token are refused", async () => {
    const owner = await fx.tenantWithOwner('Hostile Seats');
    const { accessToken } = await fx.signIn(owner);
    const userBearer = { authorization: `Bearer ${accessToken}` };
    const serviceToken = await fx.forge({
      subject: 'identity',
      kind: 'service',
      tenantId: owner.tenantId,
      role: '',
      scopes: [],
      sessionId: 'service:identity',
    });
    const serviceBearer = { authorization: `Bearer ${serviceToken}` };
    const seat = { userId: 'smuggled-user' };
    for (const service of ['gateway', 'adoption'])
      for (const method of ['TakeSeat', 'ReleaseSeat'] as const) {
        const client = await as(entitlementsService, system.addresses.entitlements, service);
        expect(await statusOf(unaryCall(client, method, seat, serviceBearer))).toBe(
          GrpcStatus.PERMISSION_DENIED,
        );
      }
    const identity = await as(entitlementsService, system.addresses.entitlements, 'identity');
    expect(await statusOf(unaryCall(identity, 'TakeSeat', seat, userBearer))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    expect(await statusOf(unaryCall(identity, 'SyncSeats', { userIds: [] }, userBearer))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    // Nothing moved: the owner's seat is the only one.
    const usage = await unaryCall(identity, 'GetUsage', {}, userBearer).catch(() => undefined);
    expect(usage).toBeUndefined();
    const gateway = await as(entitlementsService, system.addresses.entitlements, 'gateway');
    const report = await unaryCall(gateway, 'GetUsage', {}, userBearer);
    expect(report.limits.find((l) => l.key === 'MAX_USERS')?.current).toBe(1);
  });

  it('only the gateway reads the usage history; another service with a valid user token is refused', async () => {
    const owner = await fx.tenantWithOwner('Hostile History');
    const bearer = { authorization: `Bearer ${(await fx.signIn(owner)).accessToken}` };
    const ask = { key: 'MAX_USERS' };
    for (const service of ['adoption', 'identity'] as const) {
      const client = await as(entitlementsService, system.addresses.entitlements, service);
      expect([service, await statusOf(unaryCall(client, 'GetUsageHistory', ask, bearer))]).toEqual([
        service,
        GrpcStatus.PERMISSION_DENIED,
      ]);
    }
    const gateway = await as(entitlementsService, system.addresses.entitlements, 'gateway');
    expect(await statusOf(unaryCall(gateway, 'GetUsageHistory', ask, bearer))).toBe('OK');
    expect(await statusOf(unaryCall(gateway, 'GetUsageHistory', ask, {}))).toBe(GrpcStatus.UNAUTHENTICATED);
  });

  it('a caller without a client certificate, in plaintext, or with a certificate of another CA gets no answer', async () => {
    const ca = Buffer.from((await testIdentity('gateway')).ca);
    const create = { name: 'Hostile', slug: '' };
    // Writes fail fast: a refused handshake shows as UNAVAILABLE at once.
    const bare = new identityService(
      system.addresses.identity,
      credentials.createSsl(ca, null, null, { checkServerIdentity: () => undefined }),
    );
    const plain = new identityService(system.addresses.identity, credentials.createInsecure());
    const foreignCa = await createCertificateAuthority();
    const impostor = createClient(
      identityService,
      system.addresses.identity,
      tlsFromPem(await foreignCa.issue('operator')),
    );
    opened.push(bare, plain, impostor);
    expect(await statusOf(unaryCall(bare, 'CreateTenant', create, operator))).toBe(GrpcStatus.UNAVAILABLE);
    expect([GrpcStatus.UNAVAILABLE, GrpcStatus.INTERNAL]).toContain(
      await statusOf(unaryCall(plain, 'CreateTenant', create, operator)),
    );
    expect(await statusOf(unaryCall(impostor, 'CreateTenant', create, operator))).toBe(
      GrpcStatus.UNAVAILABLE,
    );
  });

  it("a signed-out session's token is refused by adoption and entitlements called directly with the gateway's identity", async () => {
    const owner = await fx.tenantWithOwner('Hostile Revoked');
    const { accessToken } = await fx.signIn(owner);
    const bearer = { authorization: `Bearer ${accessToken}` };
    const adoption = await as(adoptionService, system.addresses.adoption, 'gateway');
    const entitlements = await as(entitlementsService, system.addresses.entitlements, 'gateway');
    expect(await statusOf(unaryCall(adoption, 'GetState', {}, bearer))).toBe('OK');
    expect(await statusOf(unaryCall(entitlements, 'GetUsage', {}, bearer))).toBe('OK');
    expect((await system.http('POST', '/api/v1/auth/logout', { headers: bearer })).status).toBe(204);
    expect(await statusOf(unaryCall(adoption, 'GetState', {}, bearer))).toBe(GrpcStatus.UNAUTHENTICATED);
    expect(await statusOf(unaryCall(entitlements, 'GetUsage', {}, bearer))).toBe(GrpcStatus.UNAUTHENTICATED);
    const identity = await as(identityService, system.addresses.identity, 'gateway');
    expect(await statusOf(unaryCall(identity, 'GetTenant', {}, bearer))).toBe(GrpcStatus.UNAUTHENTICATED);
  });
});
