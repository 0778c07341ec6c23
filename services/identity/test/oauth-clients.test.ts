import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { codeOf, openIdentityBed, type IdentityBed } from './support/identity-bed.js';

describe('OAuth clients and the client credentials grant', () => {
  let bed: IdentityBed;
  let tenantId: string;
  let ownerBearer: { authorization: string };

  beforeAll(async () => {
    bed = await openIdentityBed('oauth_clients');
    const owner = await bed.tenantWithOwner('Clients Co');
    tenantId = owner.tenantId;
    const session = await unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password });
    ownerBearer = { authorization: `Bearer ${session.accessToken}` };
  });
  afterAll(async () => {
    await bed?.close();
  });

  const create = (
    scopes = ['products:read', 'dpp:read'],
    settings = ownerBearer,
    request: { name?: string; tenantId?: string } = {},
  ) =>
    unaryCall(
      bed.client,
      'CreateOAuthClient',
      { name: 'ERP sync', scopes, tenantId: '', ...request },
      settings,
    );
  const grant = (clientId: string, clientSecret: string, scope = '') =>
    unaryCall(bed.client, 'IssueClientToken', { clientId, clientSecret, scope });

  it("creates a client for the token's tenant and shows its secret once", async () => {
    const created = await create();
    expect(created.client).toMatchObject({
      tenantId,
      name: 'ERP sync',
      scopes: ['products:read', 'dpp:read'],
    });
    expect(created.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const listed = await unaryCall(bed.client, 'ListOAuthClients', { tenantId: '' }, ownerBearer);
    expect(listed.clients.map((c) => c.clientId)).toContain(created.client!.clientId);
    expect(JSON.stringify(listed)).not.toContain(created.clientSecret);
    const stored = await bed.db
      .collection('oauth_clients')
      .findOne({ _id: created.client!.clientId as never });
    expect(JSON.stringify(stored)).not.toContain(created.clientSecret);
    expect(stored?.['secretHash']).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('grants the asked scopes when the client holds them, all of them when none are asked', async () => {
    const { client, clientSecret } = await create();
    const all = await grant(client!.clientId, clientSecret);
    expect(all).toMatchObject({ expiresIn: 900, scope: 'products:read dpp:read' });
    const claims = await bed.verifier.verify(all.accessToken);
    expect(claims).toMatchObject({
      kind: 'client',
      subject: client!.clientId,
      tenantId,
      role: '',
      scopes: ['products:read', 'dpp:read'],
    });
    expect((await grant(client!.clientId, clientSecret, 'dpp:read')).scope).toBe('dpp:read');
    expect(await codeOf(grant(client!.clientId, clientSecret, 'dpp:read products:write'))).toBe(
      'SCOPE_NOT_GRANTED',
    );
    expect(await codeOf(grant(client!.clientId, clientSecret, 'admin'))).toBe('SCOPE_NOT_GRANTED');
  });

  it('answers a wrong secret and an unknown client alike', async () => {
    const { client } = await create();
    expect(await codeOf(grant(client!.clientId, 'wrong-secret'))).toBe('CLIENT_AUTH_FAILED');
    expect(await codeOf(grant('no-such-client', 'wrong-secret'))).toBe('CLIENT_AUTH_FAILED');
    // Even a scope it does not hold: authentication comes first.
    expect(await codeOf(grant(client!.clientId, 'wrong-secret', 'admin'))).toBe('CLIENT_AUTH_FAILED');
  });

  it('refuses out-of-shape credentials as CREDENTIAL_MALFORMED before any lookup (issue #11)', async () => {
    const { client, clientSecret } = await create();
    for (const [clientId, secret, scope] of [
      ['c'.repeat(600), clientSecret, ''],
      ['', clientSecret, ''],
      ['id with spaces', clientSecret, ''],
      ['id\u0000nul', clientSecret, ''],
      [client!.clientId, 's'.repeat(600), ''],
      [client!.clientId, '', ''],
      [client!.clientId, clientSecret, 'x'.repeat(1_001)],
      [client!.clientId, clientSecret, 'dpp:read\n'],
    ] as const) {
      expect(await codeOf(grant(clientId, secret, scope))).toBe('CREDENTIAL_MALFORMED');
    }
    expect(await codeOf(unaryCall(bed.client, 'Login', { email: 'e'.repeat(400), password: 'x' }))).toBe(
      'CREDENTIAL_MALFORMED',
    );
    expect(
      await codeOf(unaryCall(bed.client, 'Login', { email: 'a@b.example', password: 'p'.repeat(5_000) })),
    ).toBe('CREDENTIAL_MALFORMED');
    expect(
      await codeOf(unaryCall(bed.client, 'RequestMagicLink', { email: `${'e'.repeat(400)}@x.example` })),
    ).toBe('CREDENTIAL_MALFORMED');
  });

  it('rotates a secret: the old one and its tokens stop at once', async () => {
    const { client, clientSecret } = await create();
    const before = await bed.verifier.verify((await grant(client!.clientId, clientSecret)).accessToken);
    const rotated = await unaryCall(
      bed.client,
      'RotateOAuthClientSecret',
      { clientId: client!.clientId, tenantId: '' },
      ownerBearer,
    );
    expect(rotated.clientSecret).not.toBe(clientSecret);
    expect(await codeOf(grant(client!.clientId, clientSecret))).toBe('CLIENT_AUTH_FAILED');
    expect(await bed.isRevoked(before.sessionId)).toBe(true);
    const after = await bed.verifier.verify(
      (await grant(client!.clientId, rotated.clientSecret)).accessToken,
    );
    expect(after.sessionId).not.toBe(before.sessionId);
    expect(await bed.isRevoked(after.sessionId)).toBe(false);
  });

  it("refuses every client-management call made with a client's own token, even its own rotation", async () => {
    const mine = await create();
    const token = (await grant(mine.client!.clientId, mine.clientSecret, 'dpp:read')).accessToken;
    const asClient = { authorization: `Bearer ${token}` };
    const rotateOwn = unaryCall(
      bed.client,
      'RotateOAuthClientSecret',
      { clientId: mine.client!.clientId, tenantId: '' },
      asClient,
    );
    // A dpp:read token rotating its client's secret would gain every scope and lock the integration out.
    expect(await codeOf(rotateOwn)).toBe('SCOPE_MISSING');
    expect(await codeOf(create(['dpp:read'], asClient))).toBe('SCOPE_MISSING');
    expect(await codeOf(unaryCall(bed.client, 'ListOAuthClients', { tenantId: '' }, asClient))).toBe(
      'SCOPE_MISSING',
    );
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'DeleteOAuthClient',
          { clientId: mine.client!.clientId, tenantId: '' },
          asClient,
        ),
      ),
    ).toBe('SCOPE_MISSING');
    // The old secret still works: nothing was rotated.
    await expect(grant(mine.client!.clientId, mine.clientSecret)).resolves.toMatchObject({ expiresIn: 900 });
  });

  it('deletes a client: no more tokens, and the ones it had are revoked', async () => {
    const { client, clientSecret } = await create();
    const claims = await bed.verifier.verify((await grant(client!.clientId, clientSecret)).accessToken);
    await unaryCall(
      bed.client,
      'DeleteOAuthClient',
      { clientId: client!.clientId, tenantId: '' },
      ownerBearer,
    );
    expect(await bed.isRevoked(claims.sessionId)).toBe(true);
    expect(await codeOf(grant(client!.clientId, clientSecret))).toBe('CLIENT_AUTH_FAILED');
    expect(
      await codeOf(
        unaryCall(bed.client, 'DeleteOAuthClient', { clientId: client!.clientId, tenantId: '' }, ownerBearer),
      ),
    ).toBe('OAUTH_CLIENT_NOT_FOUND');
  });

  it('keeps tenants apart and refuses members', async () => {
    const { client } = await create();
    const stranger = await bed.tenantWithOwner('Stranger Co');
    const strangerBearer = {
      authorization: `Bearer ${(await unaryCall(bed.client, 'Login', { email: stranger.email, password: stranger.password })).accessToken}`,
    };
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'DeleteOAuthClient',
          { clientId: client!.clientId, tenantId: tenantId },
          strangerBearer,
        ),
      ),
    ).toBe('OAUTH_CLIENT_NOT_FOUND');
    const member = await unaryCall(
      bed.client,
      'CreateUser',
      {
        tenantId,
        user: {
          email: `member-${Date.now()}@clients.example`,
          firstName: 'Max',
          lastName: 'Member',
          password: 'member passphrase',
        },
        role: 'MEMBER',
      },
      bed.operator,
    );
    const memberBearer = {
      authorization: `Bearer ${(await unaryCall(bed.client, 'Login', { email: member.email, password: 'member passphrase' })).accessToken}`,
    };
    expect(await codeOf(create(['dpp:read'], memberBearer))).toBe('ROLE_FORBIDDEN');
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'RotateOAuthClientSecret',
          { clientId: client!.clientId, tenantId: '' },
          memberBearer,
        ),
      ),
    ).toBe('ROLE_FORBIDDEN');
  });

  it("lets the operator manage any tenant's clients, naming the tenant", async () => {
    const created = await create(['dpp:read'], bed.operator, { name: 'CLI made', tenantId });
    expect(created.client?.tenantId).toBe(tenantId);
    expect(await codeOf(create(['dpp:read'], bed.operator, { name: 'x' }))).toBe('TENANT_ID_REQUIRED');
  });

  it('refuses a client without scopes, with an unknown scope or without a name', async () => {
    expect(await codeOf(create([]))).toBe('OAUTH_CLIENT_SCOPES_REQUIRED');
    expect(await codeOf(create(['everything']))).toBe('SCOPE_INVALID');
    expect(await codeOf(create(['dpp:read'], ownerBearer, { name: ' ' }))).toBe('OAUTH_CLIENT_NAME_INVALID');
  });
});
