import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createRateLimitRedis } from '@tap/ratelimit';
import { infraUrls, testNamespace } from '@tap/testkit';
import {
  createTokenSigner,
  createTokenVerifier,
  generateSigningKey,
  importPrivateKey,
  revocationKey,
  type TokenSigner,
  type TokenVerifier,
} from '@tap/tokens';
import Fastify, { type FastifyInstance } from 'fastify';
import { redisSessionRevocations } from '../src/session-revocations.js';
import { callerOf } from '../src/http/auth/caller.js';
import { ROUTE_TABLE } from '../src/http/auth/route-table.js';
import { apiAuthenticationPlugin } from '../src/http/plugins/api-authentication.js';
import { errorHandlerPlugin } from '../src/http/plugins/error-handler.js';

const TOKENS = { issuer: 'https://identity.api-authentication-test', audience: 'tap-api' };
const namespace = testNamespace('api-authentication');
const redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 5_000 });
const revocations = redisSessionRevocations(redis, `${namespace}:revoked`);
let signer: TokenSigner;
let verifier: TokenVerifier;

beforeAll(async () => {
  // The client queues nothing while it connects (fail-fast, as in production): wait for it.
  if (redis.status !== 'ready') await once(redis, 'ready');
  const key = await generateSigningKey();
  signer = createTokenSigner({ kid: key.kid, privateKey: await importPrivateKey(key.privateJwk), ...TOKENS });
  verifier = createTokenVerifier({ ...TOKENS, fetchJwks: async () => ({ keys: [key.publicJwk] }) });
});
afterAll(async () => {
  await redis.quit();
});

/** A gateway with the API scope authenticated once, and whatever routes `register` adds to it. */
async function gatewayWith(register: (api: FastifyInstance) => void) {
  const app = Fastify();
  await app.register(errorHandlerPlugin);
  const seen: { url: string; method: unknown; access: unknown; hooks: number }[] = [];
  await app.register(
    async (api) => {
      await api.register(apiAuthenticationPlugin, { prefix: '/api/v1', verifier, revocations });
      api.addHook('onRoute', (route) => {
        const hooks =
          route.onRequest === undefined ? 0 : Array.isArray(route.onRequest) ? route.onRequest.length : 1;
        seen.push({ url: route.url, method: route.method, access: route.config?.access?.access, hooks });
      });
      register(api);
    },
    { prefix: '/api/v1' },
  );
  return { app, seen };
}

async function listening(app: FastifyInstance) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return async (method: string, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
}

async function userToken(sessionId = randomUUID()) {
  const { token } = await signer.sign({
    subject: randomUUID(),
    kind: 'user',
    tenantId: 't-1',
    role: 'OWNER',
    scopes: [],
    sessionId,
  });
  return { sessionId, authorization: `Bearer ${token}` };
}

describe('authentication of the API scope', () => {
  it('refuses to build a gateway with a route under /api/v1 that has no decision', async () => {
    await expect(
      gatewayWith((api) => {
        api.get('/tenant/secrets', async () => ({}));
      }),
    ).rejects.toMatchObject({ code: 'ROUTE_WITHOUT_REQUIREMENT' });
  });

  it('refuses a route that writes its own requirement beside the table', async () => {
    await expect(
      gatewayWith((api) => {
        api.get('/tenant', { config: { auth: { users: true } } }, async () => ({}));
      }),
    ).rejects.toMatchObject({ code: 'ROUTE_REQUIREMENT_OUTSIDE_TABLE' });
  });

  it("gives each route the table's decision and no hook of its own (the scope's one hook decides)", async () => {
    const { app, seen } = await gatewayWith((api) => {
      api.post('/oauth/clients/:clientId/rotate', async () => ({}));
      api.post('/oauth/token', async () => ({}));
    });
    await app.ready();
    expect(seen).toEqual([
      { url: '/api/v1/oauth/clients/:clientId/rotate', method: 'POST', access: 'token', hooks: 0 },
      { url: '/api/v1/oauth/token', method: 'POST', access: 'public', hooks: 0 },
    ]);
    await app.close();
  });

  it('authenticates the HEAD twin of a GET route too (no handler runs without a token)', async () => {
    const { app } = await gatewayWith((api) => {
      api.get('/tenant', async () => ({ ran: true }));
    });
    const call = await listening(app);
    for (const method of ['GET', 'HEAD']) {
      expect({ method, status: (await call(method, '/api/v1/tenant')).status }).toEqual({
        method,
        status: 401,
      });
    }
    await app.close();
  });

  it("hands a token route's handler its verified caller through callerOf", async () => {
    const { app } = await gatewayWith((api) => {
      api.get('/tenant', async (request) => ({ sessionId: callerOf(request).claims.sessionId }));
    });
    const call = await listening(app);
    const user = await userToken();
    expect(await call('GET', '/api/v1/tenant', { authorization: user.authorization })).toEqual({
      status: 200,
      body: { sessionId: user.sessionId },
    });
    await app.close();
  });

  it('refuses a token whose session was revoked, like any other bad token', async () => {
    const { app } = await gatewayWith((api) => {
      api.get('/tenant', async () => ({ ran: true }));
    });
    const call = await listening(app);
    const user = await userToken();
    await redis.set(revocationKey(`${namespace}:revoked`, user.sessionId), '1', 'PX', 60_000);
    expect(await call('GET', '/api/v1/tenant', { authorization: user.authorization })).toMatchObject({
      status: 401,
      body: { error: 'invalid_token' },
    });
    await app.close();
  });

  it('answers 500 INTERNAL, never an anonymous answer, when a public route asks for its caller', async () => {
    const { app } = await gatewayWith((api) => {
      api.post('/oauth/token', async (request) => ({ tenantId: callerOf(request).claims.tenantId }));
    });
    const call = await listening(app);
    expect(await call('POST', '/api/v1/oauth/token')).toEqual({
      status: 500,
      body: { success: false, error: { code: 'INTERNAL', message: 'Something went wrong on our side' } },
    });
    await app.close();
  });

  it('answers an unknown path under /api/v1 with 404, without asking for a token', async () => {
    const { app } = await gatewayWith(() => undefined);
    const call = await listening(app);
    expect(await call('GET', '/api/v1/no-such-route')).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'ROUTE_NOT_FOUND' } },
    });
    await app.close();
  });

  it('leaves routes outside the API prefix alone', async () => {
    const app = Fastify();
    await app.register(apiAuthenticationPlugin, { prefix: '/api/v1', verifier, revocations });
    app.get('/healthz', async () => ({}));
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });

  it('names every entry as METHOD /path with a reason', () => {
    for (const [key, entry] of Object.entries(ROUTE_TABLE)) {
      expect(key).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/[a-z0-9/:.-]+$/i);
      expect(entry.why.length).toBeGreaterThan(10);
    }
  });
});
