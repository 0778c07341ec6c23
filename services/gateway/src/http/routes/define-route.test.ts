import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { open, RouteTableError } from '../auth/access.js';
import { OPERATIONS } from '../openapi/operations.js';
import { ALL_ROUTES } from './all-routes.js';
import { registerRoutes, routesOf, type Route } from './define-route.js';

const route = routesOf<{ answer: string }>();

describe('a route declaration', () => {
  it('does not type-check without an access decision', () => {
    const declare = () =>
      // @ts-expect-error: `access` is required: no route exists without a decision.
      route('GET /nothing-decided', {
        operation: { hidden: 'a test' },
        handler: () => async () => 'nothing',
      });
    expect(declare).not.toThrow();
  });

  it('is refused by the registrar at start when its access decision is missing all the same', async () => {
    const app = Fastify();
    const undecided = {
      method: 'GET',
      url: '/undecided',
      operation: { hidden: 'a test' },
      handler: () => async () => 'nothing',
    } as unknown as Route<{ answer: string }>;
    expect(() => registerRoutes(app, [undecided], { answer: '' })).toThrow(RouteTableError);
    await app.close();
  });

  it('is registered with its handler built from the group dependencies, HEAD following GET', async () => {
    const app = Fastify();
    const hello = route('GET /hello', {
      access: open('a test'),
      operation: { hidden: 'a test' },
      handler:
        ({ answer }) =>
        async () =>
          answer,
    });
    registerRoutes(app, [hello], { answer: 'hi' });
    const get = await app.inject({ method: 'GET', url: '/hello' });
    const head = await app.inject({ method: 'HEAD', url: '/hello' });
    expect([get.statusCode, get.body, head.statusCode]).toEqual([200, 'hi', 200]);
    await app.close();
  });
});

describe('the operations built from the declarations', () => {
  const withParameters = (url: string) => url.includes('/:');

  it('documents every declared route that is not hidden, under its own operationId', () => {
    const ids = Object.values(OPERATIONS).map((operation) => operation.operationId);
    const shown = ALL_ROUTES.filter((r: Route) => !('hidden' in r.operation));
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(OPERATIONS).sort()).toEqual(shown.map((r) => `${r.method} ${r.url}`).sort());
  });

  it('gives no 404 to a route with nothing to find, and no 413 or 415 to a GET', () => {
    const misplaced = ALL_ROUTES.flatMap((r: Route) => {
      const operation = OPERATIONS[`${r.method} ${r.url}`];
      if (!operation) return [];
      const wrong = operation.errors.filter(
        (status) =>
          (status === 404 && r.method === 'GET' && !withParameters(r.url)) ||
          ((status === 413 || status === 415) && r.method === 'GET'),
      );
      return wrong.length > 0 ? [`${r.method} ${r.url}: ${wrong.join(', ')}`] : [];
    });
    // GET /tenant answers 404 TENANT_NOT_FOUND when a token outlives its tenant.
    expect(misplaced).toEqual(['GET /tenant: 404']);
  });

  it('gives every token route 401, 403 and 429 (authentication, role or tier, quota)', () => {
    for (const r of ALL_ROUTES as readonly Route[]) {
      const operation = OPERATIONS[`${r.method} ${r.url}`];
      if (!operation || r.access.access !== 'token') continue;
      expect([r.url, [401, 403, 429].every((s) => operation.errors.includes(s as 401))]).toEqual([
        r.url,
        true,
      ]);
    }
  });
});
