import { ALL_ROUTES } from '../routes/all-routes.js';
import type { RouteAccess } from './access.js';

export { MANAGER_ROLES, type RouteAccess } from './access.js';

/** `METHOD /path` of every declared route, as Fastify registers it under /api/v1. */
export type RouteKey = (typeof ALL_ROUTES)[number]['key'];

/**
 * The authorization decision of every route under /api/v1, keyed `METHOD /path` with Fastify's
 * `:param` syntax (HEAD follows GET), built from the routes' own declarations
 * (routes/all-routes.ts): each route states its access where it is declared, with its reason,
 * and a declaration without one does not type-check. The authentication plugin applies this
 * table to each route as it registers, and refuses to register a route that has no entry here
 * (one registered outside the declarations), so an endpoint cannot ship without a decision.
 * docs/security.md ("Endpoint → scope / role table") is the same table for people (a test
 * checks they agree); the services re-check the writes themselves (zero trust).
 *
 * None of our routes serves product data, so none needs one of the spec's data scopes
 * (`products:*`, `connections:*`, `imports:write`, `traceability:read`, `dpp:read`): client
 * tokens may read the tenant's own account state and may not administer or write anything.
 */
export const ROUTE_TABLE: Readonly<Record<RouteKey, RouteAccess>> = Object.fromEntries(
  ALL_ROUTES.map((route) => [route.key, route.access] as const),
) as Record<RouteKey, RouteAccess>;

/** The entry of a route (`path` without the /api/v1 prefix), or undefined when it has none. */
export function routeAccess(method: string, path: string): RouteAccess | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${path}`;
  return Object.hasOwn(ROUTE_TABLE, key) ? ROUTE_TABLE[key as RouteKey] : undefined;
}
