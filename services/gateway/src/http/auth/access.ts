import type { AuthRequirement } from './requirements.js';

/**
 * What one route under /api/v1 asks of its caller. `public`: no bearer token (the route guards
 * itself: credentials in the body, Origin allowlist, its own limits). `token`: a verified access
 * token (header, or the session cookie with CSRF), then `auth` (users only, roles, scope).
 */
export type RouteAccess =
  | { readonly access: 'public'; readonly why: string }
  | { readonly access: 'token'; readonly auth: AuthRequirement; readonly why: string };

/** Roles that administer a tenant: OAuth clients, join requests, the adoption journey's writes. */
export const MANAGER_ROLES: readonly string[] = ['OWNER', 'ADMIN'];

/** No bearer token: the route guards itself, for the reason given. */
export const open = (why: string): RouteAccess => ({ access: 'public', why });
/** Any token of the tenant: a user of any role, or an OAuth client whatever its scopes. */
export const anyToken = (why: string): RouteAccess => ({ access: 'token', auth: {}, why });
/** A signed-in user's token, whatever the role; an OAuth client's is refused. */
export const anyUser = (why: string): RouteAccess => ({ access: 'token', auth: { users: true }, why });
/** A signed-in OWNER or ADMIN. */
export const managers = (why: string): RouteAccess => ({
  access: 'token',
  auth: { roles: MANAGER_ROLES },
  why,
});

/** A route was registered under the API prefix without a decision in the route table. */
export class RouteTableError extends Error {
  readonly code: 'ROUTE_WITHOUT_REQUIREMENT' | 'ROUTE_REQUIREMENT_OUTSIDE_TABLE';
  constructor(code: RouteTableError['code'], message: string) {
    super(message);
    this.name = 'RouteTableError';
    this.code = code;
  }
}
