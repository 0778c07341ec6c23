import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTapClient, type TapClient } from '@tap/client';
import {
  FORM_HEADERS,
  form,
  openIdentityFixtures,
  type Account,
  type IdentityFixtures,
} from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';

const oauthError = (error: string) => ({ error, error_description: expect.any(String) });

describe('OAuth 2.0 client credentials over HTTP (spec: "OAuth 2.0 client credentials")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let ownerToken: string;
  /** The owner's session through @tap/client, as an integration's code would hold it. */
  let ownerApi: TapClient;

  beforeAll(async () => {
    system = await startSystem('oauth', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Oauth Supplies');
    const session = await fx.signIn(owner);
    ownerToken = session.accessToken;
    ownerApi = createTapClient({
      baseUrl: `${system.baseUrl}/api/v1`,
      auth: { kind: 'userTokens', tokens: session },
    });
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const token = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    system.http('POST', '/api/v1/oauth/token', {
      headers: { ...FORM_HEADERS, ...headers },
      body: form(params),
    });
  const grant = (clientId: string, clientSecret: string, extra: Record<string, string> = {}) =>
    token({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, ...extra });
  const createClient = async (scopes: string[], as = ownerToken) => {
    const response = await system.http('POST', '/api/v1/oauth/clients', {
      headers: bearer(as),
      body: { name: 'Warehouse sync', scopes },
    });
    return response as HttpResponse & { body: { data: { clientId: string; clientSecret: string } } };
  };

  describe('client management (Account > API Access, for an OWNER or ADMIN)', () => {
    it('POST /oauth/clients creates a client and shows its secret once; GET lists it without', async () => {
      const created = await ownerApi.POST('/oauth/clients', {
        body: { name: 'Warehouse sync', scopes: ['products:read', 'dpp:read'] },
      });
      expect(created.response.status).toBe(201);
      expect(created.response.headers.get('cache-control')).toBe('no-store');
      expect(created.data).toEqual({
        success: true,
        data: {
          clientId: expect.any(String),
          clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          name: 'Warehouse sync',
          scopes: ['products:read', 'dpp:read'],
          createdAt: expect.any(String),
          secretRotatedAt: expect.any(String),
        },
      });
      const secret = created.data!.data.clientSecret;
      const listed = await ownerApi.GET('/oauth/clients');
      expect(listed.response.status).toBe(200);
      expect(listed.data!.data.clients.map((c) => c.clientId)).toContain(created.data!.data.clientId);
      expect(JSON.stringify(listed.data)).not.toContain(secret);
    });

    it('lets an ADMIN manage clients but not a MEMBER (403 ROLE_FORBIDDEN) nor a client token (403 insufficient_scope)', async () => {
      const admin = await fx.signIn(await fx.addUser(owner.tenantId, 'ADMIN'));
      expect((await createClient(['dpp:read'], admin.accessToken)).status).toBe(201);
      const member = await fx.signIn(await fx.addUser(owner.tenantId, 'MEMBER'));
      const refused = await createClient(['dpp:read'], member.accessToken);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'ROLE_FORBIDDEN' } });
      const client = await fx.oauthClient(owner.tenantId, ['dpp:read']);
      const asClient = await system.http('GET', '/api/v1/oauth/clients', {
        headers: bearer(await fx.clientToken(client.clientId, client.clientSecret)),
      });
      expect(asClient.status).toBe(403);
      expect(asClient.body).toEqual(oauthError('insufficient_scope'));
      expect(asClient.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope"/);
    });

    it('refuses bad client definitions with 400', async () => {
      expect((await createClient([])).status).toBe(400);
      const unknown = await createClient(['everything:write']);
      expect(unknown.status).toBe(400);
      // The document lists the scopes (an enum): an unknown one is the schema's refusal.
      expect(unknown.body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
    });

    it('DELETE /oauth/clients/{clientId} deletes it; its tokens die with it', async () => {
      const { clientId, clientSecret } = (await createClient(['dpp:read'])).body.data;
      const accessToken = await fx.clientToken(clientId, clientSecret);
      expect((await system.http('GET', '/api/v1/tenant', { headers: bearer(accessToken) })).status).toBe(200);
      const deleted = await system.http('DELETE', `/api/v1/oauth/clients/${clientId}`, {
        headers: bearer(ownerToken),
      });
      expect(deleted.status).toBe(204);
      const after = await system.http('GET', '/api/v1/tenant', { headers: bearer(accessToken) });
      expect(after.status).toBe(401);
      expect(after.body).toEqual(oauthError('invalid_token'));
      expect((await grant(clientId, clientSecret)).status).toBe(401);
      expect(
        (await system.http('DELETE', `/api/v1/oauth/clients/${clientId}`, { headers: bearer(ownerToken) }))
          .status,
      ).toBe(404);
    });

    it("keeps another tenant's clients out of reach (404)", async () => {
      const stranger = await fx.signIn(await fx.tenantWithOwner('Stranger Ltd'));
      const { clientId } = (await createClient(['dpp:read'])).body.data;
      expect(
        (
          await system.http('DELETE', `/api/v1/oauth/clients/${clientId}`, {
            headers: bearer(stranger.accessToken),
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await system.http('POST', `/api/v1/oauth/clients/${clientId}/rotate`, {
            headers: bearer(stranger.accessToken),
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('POST /oauth/token', () => {
    it('answers { access_token, token_type: Bearer, expires_in: 900, scope } and the token works', async () => {
      const { clientId, clientSecret } = (await createClient(['products:read', 'dpp:read'])).body.data;
      const response = await grant(clientId, clientSecret, { scope: 'dpp:read' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'dpp:read',
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('pragma')).toBe('no-cache');
      const accessToken = (response.body as { access_token: string }).access_token;
      const tenant = await system.http('GET', '/api/v1/tenant', { headers: bearer(accessToken) });
      expect(tenant.status).toBe(200);
      expect((await grant(clientId, clientSecret)).body).toMatchObject({ scope: 'products:read dpp:read' });
    });

    it('accepts the credentials in HTTP Basic too', async () => {
      const { clientId, clientSecret } = (await createClient(['dpp:read'])).body.data;
      const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
      expect((await token({ grant_type: 'client_credentials' }, { authorization: basic })).status).toBe(200);
      const wrong = `Basic ${Buffer.from(`${clientId}:wrong`).toString('base64')}`;
      const refused = await token({ grant_type: 'client_credentials' }, { authorization: wrong });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(oauthError('invalid_client'));
      expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm="tap"/);
    });

    it("answers a scope beyond the client's with 400 invalid_scope", async () => {
      const { clientId, clientSecret } = (await createClient(['dpp:read'])).body.data;
      for (const scope of ['products:write', 'dpp:read products:read', 'admin']) {
        const response = await grant(clientId, clientSecret, { scope });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(oauthError('invalid_scope'));
      }
    });

    it('answers a wrong secret and an unknown client with the same 401 invalid_client', async () => {
      const { clientId } = (await createClient(['dpp:read'])).body.data;
      const wrongSecret = await grant(clientId, 'A'.repeat(43));
      const unknownClient = await grant('00000000-0000-4000-8000-000000000000', 'A'.repeat(43));
      for (const response of [wrongSecret, unknownClient]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual(oauthError('invalid_client'));
      }
      expect(wrongSecret.body).toEqual(unknownClient.body);
    });

    it.each([
      [
        'an unknown grant_type',
        'unsupported_grant_type',
        { grant_type: 'password', username: 'a', password: 'b' },
      ],
      [
        'the authorization_code grant',
        'unsupported_grant_type',
        { grant_type: 'authorization_code', code: 'x', client_id: 'c', client_secret: 's' },
      ],
      ['a missing grant_type', 'invalid_request', { client_id: 'c', client_secret: 's' }],
      ['a missing client_id', 'invalid_request', { grant_type: 'client_credentials', client_secret: 's' }],
      ['a missing client_secret', 'invalid_request', { grant_type: 'client_credentials', client_id: 'c' }],
    ])('answers %s with 400 %s', async (_label, error, params) => {
      const response = await token(params);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(oauthError(error));
    });

    it('answers a JSON body, a repeated parameter and no body with 400 invalid_request', async () => {
      const json = await system.http('POST', '/api/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' },
      });
      const repeated = await system.http('POST', '/api/v1/oauth/token', {
        headers: FORM_HEADERS,
        body: 'grant_type=client_credentials&client_id=a&client_id=b&client_secret=s',
      });
      const empty = await system.http('POST', '/api/v1/oauth/token');
      for (const response of [json, repeated, empty]) {
        expect(response.status).toBe(400);
        expect(response.body).toEqual(oauthError('invalid_request'));
      }
    });
  });

  describe('POST /oauth/clients/{clientId}/rotate', () => {
    it('returns a new secret; the old secret and the tokens it obtained stop at once', async () => {
      const { clientId, clientSecret } = (await createClient(['dpp:read'])).body.data;
      const oldToken = await fx.clientToken(clientId, clientSecret);
      const rotated = await ownerApi.POST('/oauth/clients/{clientId}/rotate', {
        params: { path: { clientId } },
      });
      expect(rotated.response.status).toBe(200);
      expect(rotated.response.headers.get('cache-control')).toBe('no-store');
      expect(rotated.data).toEqual({
        success: true,
        data: { clientId, clientSecret: expect.any(String), secretRotatedAt: expect.any(String) },
      });
      const newSecret = rotated.data!.data.clientSecret;
      expect(newSecret).not.toBe(clientSecret);

      const withOld = await grant(clientId, clientSecret);
      expect(withOld.status).toBe(401);
      expect(withOld.body).toEqual(oauthError('invalid_client'));
      expect((await system.http('GET', '/api/v1/tenant', { headers: bearer(oldToken) })).status).toBe(401);
      const integration = createTapClient({
        baseUrl: `${system.baseUrl}/api/v1`,
        auth: { kind: 'clientCredentials', clientId, clientSecret: newSecret, scopes: ['dpp:read'] },
      });
      expect((await integration.GET('/tenant')).response.status).toBe(200);
    });

    it("refuses the client's own token, even for its own secret (403 insufficient_scope), and keeps the secret", async () => {
      const mine = (await createClient(['dpp:read'])).body.data;
      const own = await fx.clientToken(mine.clientId, mine.clientSecret);
      const refused = await system.http('POST', `/api/v1/oauth/clients/${mine.clientId}/rotate`, {
        headers: bearer(own),
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(oauthError('insufficient_scope'));
      expect((await grant(mine.clientId, mine.clientSecret)).status).toBe(200);
    });

    it('needs a bearer token', async () => {
      const response = await system.http('POST', '/api/v1/oauth/clients/whatever/rotate');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(oauthError('invalid_token'));
    });
  });
});
