import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { openIdentityFixtures, type Account, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from '../support/system.js';

/*
 * Hostile bearer tokens: every way of presenting a token identity did not issue for this API,
 * or one that does not grant the write, ends in the spec's refusal and changes nothing.
 */

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const partsOf = (token: string) => token.split('.') as [string, string, string];
const headerOf = (token: string) =>
  JSON.parse(Buffer.from(partsOf(token)[0], 'base64url').toString()) as Record<string, unknown>;
const invalidToken = { error: 'invalid_token', error_description: expect.any(String) };

describe('hostile bearer tokens', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let real: string;

  beforeAll(async () => {
    system = await startSystem('hostile_tokens', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Hostile Tokens');
    await system.setTier(owner.tenantId, 'CORE');
    real = (await fx.signIn(owner)).accessToken;
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const tenantWith = (token: string) =>
    system.http('GET', '/api/v1/tenant', { headers: { authorization: `Bearer ${token}` } });
  const expectRefused = (response: HttpResponse) => {
    expect(response.status).toBe(401);
    expect(response.body).toEqual(invalidToken);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  };

  it('accepts the genuine token and one forged with identity’s own key (the controls)', async () => {
    expect((await tenantWith(real)).status).toBe(200);
    const forged = await fx.forge({ tenantId: owner.tenantId, subject: owner.userId });
    expect((await tenantWith(forged)).status).toBe(200);
  });

  it('refuses a token whose signature was altered', async () => {
    const [header, payload, signature] = partsOf(real);
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expectRefused(await tenantWith(`${header}.${payload}.${flipped}`));
    // The claims changed under the original signature (a role or a tenant swapped in).
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    expectRefused(await tenantWith(`${header}.${b64url({ ...claims, role: 'ADMIN' })}.${signature}`));
  });

  it('refuses alg:none, with or without a signature, and an HMAC token keyed with a guess', async () => {
    const [, payload] = partsOf(real);
    const none = b64url({ ...headerOf(real), alg: 'none' });
    expectRefused(await tenantWith(`${none}.${payload}.`));
    expectRefused(await tenantWith(`${none}.${payload}`));
    const hs = b64url({ ...headerOf(real), alg: 'HS256' });
    const mac = createHmac('sha256', 'tap-api').update(`${hs}.${payload}`).digest('base64url');
    expectRefused(await tenantWith(`${hs}.${payload}.${mac}`));
  });

  it('refuses a token signed with a key identity never had, under its own kid or identity’s', async () => {
    const claims = { tenantId: owner.tenantId, subject: owner.userId };
    expectRefused(await tenantWith(await fx.forge(claims, { key: 'stranger' })));
    const kid = headerOf(real)['kid'] as string;
    expectRefused(await tenantWith(await fx.forge(claims, { key: 'stranger', kid })));
    // A kid that names no key at all (and a path-like one: the kid is never a file or URL).
    expectRefused(await tenantWith(await fx.forge(claims, { kid: 'no-such-kid' })));
    expectRefused(await tenantWith(await fx.forge(claims, { kid: '../../etc/passwd' })));
  });

  it('refuses an expired token, one for another audience and one from another issuer', async () => {
    const claims = { tenantId: owner.tenantId, subject: owner.userId };
    expectRefused(await tenantWith(await fx.forge(claims, { issuedAt: new Date(Date.now() - 3_600_000) })));
    expectRefused(await tenantWith(await fx.forge(claims, { audience: 'another-api' })));
    expectRefused(await tenantWith(await fx.forge(claims, { issuer: 'https://evil.example' })));
  });

  it('refuses malformed Authorization headers with 401, never 500', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      `bearer ${real}`.replace('bearer', 'Bearer  '),
      `Bearer ${real}.extra`,
      `Bearer ${'a'.repeat(8_000)}`,
      'Bearer ....',
    ]) {
      const response = await system.http('GET', '/api/v1/tenant', { headers: { authorization } });
      expect([authorization.slice(0, 20), response.status]).toEqual([authorization.slice(0, 20), 401]);
    }
  });

  describe('down-scoped tokens against write routes', () => {
    const plan = {
      title: 'Grow',
      targetDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      objectives: [{ label: 'first', milestoneKeys: ['first-product'], met: false }],
    };

    it('refuses a MEMBER creating a success plan or an OAuth client, and nothing is created', async () => {
      const member = await fx.signIn(await fx.addUser(owner.tenantId, 'MEMBER'));
      const as = { authorization: `Bearer ${member.accessToken}` };
      const created = await system.http('POST', '/api/v1/tenant/adoption/success-plan', {
        headers: as,
        body: plan,
      });
      expect(created.status).toBe(403);
      expect(created.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
      const client = await system.http('POST', '/api/v1/oauth/clients', {
        headers: as,
        body: { name: 'sneaky', scopes: ['products:read'] },
      });
      expect(client.status).toBe(403);
      const asOwner = { authorization: `Bearer ${real}` };
      expect(
        (await system.http('GET', '/api/v1/tenant/adoption/success-plan', { headers: asOwner })).body,
      ).toEqual({
        success: true,
        data: null,
      });
      const listed = await system.http('GET', '/api/v1/oauth/clients', { headers: asOwner });
      expect((listed.body as { data: { clients: unknown[] } }).data.clients).toEqual([]);
    });

    it('refuses a MEMBER promoting itself, changing or deactivating anyone, and nothing changes', async () => {
      const account = await fx.addUser(owner.tenantId, 'MEMBER');
      const member = await fx.signIn(account);
      const as = { authorization: `Bearer ${member.accessToken}` };
      const self = await system.http('PATCH', `/api/v1/tenant/members/${account.userId}`, {
        headers: as,
        body: { role: 'OWNER' },
      });
      expect(self.status).toBe(403);
      const deactivate = await system.http('POST', `/api/v1/tenant/members/${owner.userId}/deactivate`, {
        headers: as,
      });
      expect(deactivate.status).toBe(403);
      // A service token (what identity signs for entitlements' seat ledger) is no user either.
      const service = await fx.forge({
        subject: 'identity',
        kind: 'service',
        tenantId: owner.tenantId,
        role: '',
        scopes: [],
      });
      const asService = { authorization: `Bearer ${service}` };
      expect((await system.http('GET', '/api/v1/tenant/members', { headers: asService })).status).toBe(403);
      const asOwner = { authorization: `Bearer ${real}` };
      const listed = await system.http('GET', '/api/v1/tenant/members', { headers: asOwner });
      const members = (listed.body as { data: { members: { id: string; role: string; status: string }[] } })
        .data.members;
      expect(members.find((m) => m.id === account.userId)).toMatchObject({
        role: 'MEMBER',
        status: 'ACTIVE',
      });
      expect(members.find((m) => m.id === owner.userId)).toMatchObject({ role: 'OWNER', status: 'ACTIVE' });
    });

    it('refuses an OAuth client token on user-only writes with 403 insufficient_scope', async () => {
      const { clientId, clientSecret } = await fx.oauthClient(owner.tenantId, ['products:read']);
      const token = await fx.clientToken(clientId, clientSecret);
      const as = { authorization: `Bearer ${token}` };
      const created = await system.http('POST', '/api/v1/oauth/clients', {
        headers: as,
        body: { name: 'escalate', scopes: ['products:write'] },
      });
      expect(created.status).toBe(403);
      expect(created.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
      const logout = await system.http('POST', '/api/v1/auth/logout', { headers: as });
      expect(logout.status).toBe(403);
      // Its own secret it may rotate; another client's it may not.
      const other = await fx.oauthClient(owner.tenantId, ['products:read']);
      const rotated = await system.http('POST', `/api/v1/oauth/clients/${other.clientId}/rotate`, {
        headers: as,
      });
      expect([403, 404]).toContain(rotated.status);
      expect(await fx.clientToken(other.clientId, other.clientSecret)).toEqual(expect.any(String));
    });
  });
});
