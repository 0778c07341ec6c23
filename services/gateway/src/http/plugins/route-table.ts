import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { routeAccess } from '../auth/route-table.js';

/** A route was registered under the API prefix without a decision in the route table. */
export class RouteTableError extends Error {
  readonly code: 'ROUTE_WITHOUT_REQUIREMENT' | 'ROUTE_REQUIREMENT_OUTSIDE_TABLE';
  constructor(code: RouteTableError['code'], message: string) {
    super(message);
    this.name = 'RouteTableError';
    this.code = code;
  }
}

const asList = (hooks: RouteOptions['onRequest']): onRequestHookHandler[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? [...hooks] : [hooks];

/**
 * Applies the route table (http/auth/route-table.ts) to every route under `prefix` as it is
 * registered: a `token` route gets the authenticate hook first and its `config.auth`; a route
 * without an entry, or one that sets `config.auth` itself, stops the gateway from building.
 * Failing at build rather than at request time is deliberate: an endpoint nobody decided on must
 * not exist, and a test that builds the app finds it (fail closed). Needs `authenticatePlugin`.
 */
export const routeTablePlugin = fp(async (app: FastifyInstance, options: { prefix: string }) => {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${options.prefix}/`)) return;
    const path = route.url.slice(options.prefix.length);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entries = methods.map((method) => ({ method, entry: routeAccess(method, path) }));
    const missing = entries.find((e) => e.entry === undefined);
    if (missing) {
      throw new RouteTableError(
        'ROUTE_WITHOUT_REQUIREMENT',
        `${missing.method} ${route.url} has no entry in the route table (http/auth/route-table.ts)`,
      );
    }
    if (route.config?.auth !== undefined) {
      throw new RouteTableError(
        'ROUTE_REQUIREMENT_OUTSIDE_TABLE',
        `${route.url} sets config.auth itself; its requirement belongs in the route table`,
      );
    }
    const entry = entries[0]!.entry!;
    if (entry.access === 'public') return;
    route.config = { ...route.config, auth: entry.auth };
    route.onRequest = [app.authenticate, ...asList(route.onRequest)];
  });
});
