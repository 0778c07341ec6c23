import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROUTE_TABLE, type RouteKey } from '@tap/gateway';
import { openIdentityFixtures, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, type System } from '../support/system.js';

/*
 * Tenant data is never cacheable (issue #22): every route of the table answers
 * `Cache-Control: no-store`, signed in or not, success or refusal; only the published interface
 * (the OpenAPI document and its reference page) may be cached.
 */

const CACHEABLE: readonly RouteKey[] = ['GET /openapi.json', 'GET /docs', 'GET /docs/assets/:file'];

describe('Cache-Control on every route', () => {
  let system: System;
  let fx: IdentityFixtures;
  let bearer: string;

  beforeAll(async () => {
    system = await startSystem('hostile_cache_control');
    fx = await openIdentityFixtures(system);
    const owner = await fx.tenantWithOwner('Uncached Ltd');
    await system.setTier(owner.tenantId, 'CORE');
    bearer = `Bearer ${(await fx.signIn(owner)).accessToken}`;
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  // SSO is off in this system, so its routes are not registered (sso.test.ts covers their redirects).
  const routes = (Object.keys(ROUTE_TABLE) as RouteKey[])
    .filter((key) => !key.includes('/auth/v2/sso/') && !CACHEABLE.includes(key))
    .map((key) => {
      const [method = 'GET', template = '/'] = key.split(' ');
      return { key, method, path: `/api/v1${template.replace(/:[A-Za-z]+/g, 'uncached-id')}` };
    });

  it('answers the signed-in tenant data itself with no-store', async () => {
    const tenant = await system.http('GET', '/api/v1/tenant', { headers: { authorization: bearer } });
    expect(tenant.status).toBe(200);
    expect(tenant.headers.get('cache-control')).toBe('no-store');
  });

  it('answers every other route of the table with no-store, with and without a token', async () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const headers of [{ authorization: bearer }, {}] as Record<string, string>[]) {
      for (const { key, method, path } of routes) {
        const answer = await system.http(method, path, {
          headers,
          ...(method === 'GET' ? {} : { body: {} }),
        });
        expect({
          key,
          signedIn: 'authorization' in headers,
          cacheControl: answer.headers.get('cache-control'),
        }).toEqual({
          key,
          signedIn: 'authorization' in headers,
          cacheControl: 'no-store',
        });
      }
    }
  });

  it('lets only the published interface be cached', async () => {
    const document = await system.http('GET', '/api/v1/openapi.json');
    expect(document.headers.get('cache-control')).toMatch(/^public/);
  });
});
