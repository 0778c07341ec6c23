import { describe, expect, it } from '@jest/globals';
import type { AccessClaims, TokenVerifier } from '@tap/tokens';
import Fastify, { type FastifyInstance } from 'fastify';
import { ROUTE_TABLE } from '../auth/route-table.js';
import { authenticatePlugin } from './authenticate.js';
import { routeTablePlugin } from './route-table.js';

// No request is made in these tests: the verifier is never asked.
const verifier = {
  verify: async (): Promise<AccessClaims> => {
    throw new Error('not used');
  },
} as unknown as TokenVerifier;

async function gatewayWith(register: (api: FastifyInstance) => void) {
  const app = Fastify();
  await app.register(authenticatePlugin, { verifier });
  await app.register(routeTablePlugin, { prefix: '/api/v1' });
  const seen: { url: string; method: unknown; auth: unknown; hooks: number }[] = [];
  app.addHook('onRoute', (route) => {
    const hooks =
      route.onRequest === undefined ? 0 : Array.isArray(route.onRequest) ? route.onRequest.length : 1;
    seen.push({ url: route.url, method: route.method, auth: route.config?.auth, hooks });
  });
  await app.register(async (api) => register(api), { prefix: '/api/v1' });
  return { app, seen };
}

describe('the route table plugin', () => {
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

  it("gives a token route the table's requirement and the authenticate hook, a public one neither", async () => {
    const { app, seen } = await gatewayWith((api) => {
      api.post('/oauth/clients/:clientId/rotate', async () => ({}));
      api.post('/oauth/token', async () => ({}));
    });
    await app.ready();
    expect(seen).toEqual([
      {
        url: '/api/v1/oauth/clients/:clientId/rotate',
        method: 'POST',
        auth: { roles: ['OWNER', 'ADMIN'] },
        hooks: 1,
      },
      { url: '/api/v1/oauth/token', method: 'POST', auth: undefined, hooks: 0 },
    ]);
    await app.close();
  });

  it('authenticates the HEAD twin of a GET route too (no handler runs without a token)', async () => {
    const { app } = await gatewayWith((api) => {
      api.get('/tenant', async () => ({ ran: true }));
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    for (const method of ['GET', 'HEAD']) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/tenant`, { method });
      expect({ method, status: response.status }).toEqual({ method, status: 401 });
    }
    await app.close();
  });

  it('leaves routes outside the API prefix alone', async () => {
    const app = Fastify();
    await app.register(authenticatePlugin, { verifier });
    await app.register(routeTablePlugin, { prefix: '/api/v1' });
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
