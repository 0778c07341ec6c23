import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { SYSTEM_TOKENS, startSystem, type HttpResponse, type System } from './support/system.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Every bearer endpoint the gateway serves today; each must run the same token check. */
const BEARER_ENDPOINTS: ReadonlyArray<[string, string]> = [
  ['GET', '/api/v1/tenant'],
  ['GET', '/api/v1/tenant/adoption/state'],
  ['GET', '/api/v1/tenant/adoption/next-best-action'],
  ['GET', '/api/v1/tenant/adoption/coverage'],
  ['GET', '/api/v1/tenant/adoption/risk-signals'],
  ['GET', '/api/v1/tenant/adoption/success-plan'],
  ['POST', '/api/v1/tenant/adoption/milestones/first_product_created/complete'],
  ['POST', '/api/v1/tenant/adoption/success-plan'],
  ['POST', '/api/v1/tenant/adoption/success-plan/renew'],
  ['GET', '/api/v1/entitlements/usage'],
  ['POST', '/api/v1/entitlements/can'],
  ['GET', '/api/v1/entitlements/upgrade-context?capability=EXPECTED_DATA_SETS'],
  ['POST', '/api/v1/oauth/clients'],
  ['GET', '/api/v1/oauth/clients'],
  ['DELETE', '/api/v1/oauth/clients/some-client'],
  ['POST', '/api/v1/oauth/clients/some-client/rotate'],
  ['POST', '/api/v1/auth/logout'],
];

describe("the gateway's token check (401 invalid_token, 403 insufficient_scope)", () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;

  beforeAll(async () => {
    system = await startSystem('token_check', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Checked Goods');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const getTenant = (authorization?: string) =>
    system.http('GET', '/api/v1/tenant', authorization ? { headers: { authorization } } : {});
  const expectInvalidToken = (response: HttpResponse) => {
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  };
  const ownerClaims = () => ({ subject: owner.userId, tenantId: owner.tenantId, role: 'OWNER' });

  it('accepts a well-formed token signed by identity (the forging helper is sound)', async () => {
    expect((await getTenant(`Bearer ${await fx.forge(ownerClaims())}`)).status).toBe(200);
  });

  it.each(BEARER_ENDPOINTS)('%s %s without a token is 401 invalid_token', async (method, path) => {
    expectInvalidToken(await system.http(method, path));
  });

  it.each([
    ['a malformed token', () => 'Bearer not-a-jwt'],
    ['three garbage segments', () => 'Bearer abc.def.ghi'],
    ['another scheme', () => 'Basic dXNlcjpwYXNz'],
    ['a lower-case scheme with nothing after it', () => 'bearer'],
  ])('refuses %s', async (_label, header) => {
    expectInvalidToken(await getTenant(header()));
  });

  it('refuses an expired token', async () => {
    const expired = await fx.forge(ownerClaims(), { issuedAt: new Date(Date.now() - 2 * 3_600_000) });
    expectInvalidToken(await getTenant(`Bearer ${expired}`));
  });

  it("refuses a token signed by another key under identity's kid (wrongly signed)", async () => {
    const pointer = await fx.db
      .collection<{ _id: string; kid: string }>('signing_state')
      .findOne({ _id: 'current' });
    const forged = await fx.forge(ownerClaims(), { key: 'stranger', kid: pointer!.kid });
    expectInvalidToken(await getTenant(`Bearer ${forged}`));
  });

  it('refuses a token whose kid identity never published (unknown kid)', async () => {
    expectInvalidToken(await getTenant(`Bearer ${await fx.forge(ownerClaims(), { key: 'stranger' })}`));
  });

  it('refuses alg: none', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      sub: owner.userId,
      tid: owner.tenantId,
      role: 'OWNER',
      scope: '',
      sid: 's',
      knd: 'user',
      iss: SYSTEM_TOKENS.issuer,
      aud: SYSTEM_TOKENS.audience,
      iat: now,
      exp: now + 600,
      jti: 'j',
    };
    expectInvalidToken(await getTenant(`Bearer ${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(payload)}.`));
    expectInvalidToken(await getTenant(`Bearer ${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(payload)}`));
  });

  it("refuses an HS256 token keyed with identity's public key (algorithm confusion)", async () => {
    const key = await fx.db.collection<{ _id: string; publicJwk: object }>('signing_keys').findOne({});
    const now = Math.floor(Date.now() / 1000);
    const header = b64({ alg: 'HS256', kid: key!._id, typ: 'at+jwt' });
    const payload = b64({
      sub: owner.userId,
      tid: owner.tenantId,
      role: 'OWNER',
      scope: '',
      sid: 's',
      knd: 'user',
      iss: SYSTEM_TOKENS.issuer,
      aud: SYSTEM_TOKENS.audience,
      iat: now,
      exp: now + 600,
      jti: 'j',
    });
    const signature = createHmac('sha256', JSON.stringify(key!.publicJwk))
      .update(`${header}.${payload}`)
      .digest('base64url');
    expectInvalidToken(await getTenant(`Bearer ${header}.${payload}.${signature}`));
  });

  it('refuses a token for another audience', async () => {
    expectInvalidToken(
      await getTenant(`Bearer ${await fx.forge(ownerClaims(), { audience: 'some-other-api' })}`),
    );
  });

  it('refuses a revoked token (its session logged out) from the next request on', async () => {
    const session = await fx.signIn(owner);
    expect((await getTenant(`Bearer ${session.accessToken}`)).status).toBe(200);
    expect(
      (
        await system.http('POST', '/api/v1/auth/logout', {
          headers: { authorization: `Bearer ${session.accessToken}` },
        })
      ).status,
    ).toBe(204);
    expectInvalidToken(await getTenant(`Bearer ${session.accessToken}`));
  });

  it("answers 403 insufficient_scope when the token does not grant the route (a client's token on a user's route)", async () => {
    const client = await fx.oauthClient(owner.tenantId, ['products:read']);
    const clientToken = await fx.clientToken(client.clientId, client.clientSecret);
    for (const [method, path] of [
      ['GET', '/api/v1/oauth/clients'],
      ['POST', '/api/v1/auth/logout'],
    ] as const) {
      const response = await system.http(method, path, {
        headers: { authorization: `Bearer ${clientToken}` },
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope"');
    }
  });

  it("answers 403 ROLE_FORBIDDEN when a user's role does not allow the route", async () => {
    const member = await fx.signIn(await fx.addUser(owner.tenantId, 'MEMBER'));
    const response = await system.http('GET', '/api/v1/oauth/clients', {
      headers: { authorization: `Bearer ${member.accessToken}` },
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, error: { code: 'ROLE_FORBIDDEN' } });
  });
});
