import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteKey } from '../auth/route-table.js';

/**
 * The only answers under /api/v1 a cache may keep: the published interface and its reference
 * page, the same for every caller and about no tenant. Each sets its own Cache-Control.
 */
export const CACHEABLE_ROUTES: ReadonlySet<RouteKey> = new Set<RouteKey>([
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/assets/:file',
]);

export interface NoStoreOptions {
  readonly prefix: string;
}

/**
 * Every other answer of the API scope is `Cache-Control: no-store`, whatever its route set:
 * tenant data, tokens, errors, redirects (issue #22). One onSend hook rather than a header per
 * route, so a route added tomorrow inherits it and cannot forget it; a test walks the route
 * table and checks every route's answer. Why `no-store` and not `private`: a browser's own cache
 * and back/forward history would keep a tenant's data after its session ended.
 */
export const noStorePlugin = fp(async (app: FastifyInstance, options: NoStoreOptions) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const key = url?.startsWith(`${options.prefix}/`) ? `${method} ${url.slice(options.prefix.length)}` : '';
    if (!(CACHEABLE_ROUTES as ReadonlySet<string>).has(key)) void reply.header('cache-control', 'no-store');
    return payload;
  });
});
