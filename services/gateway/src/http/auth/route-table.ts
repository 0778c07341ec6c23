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

const open = (why: string): RouteAccess => ({ access: 'public', why });
/** Any token of the tenant: a user of any role, or an OAuth client whatever its scopes. */
const anyToken = (why: string): RouteAccess => ({ access: 'token', auth: {}, why });
const anyUser = (why: string): RouteAccess => ({ access: 'token', auth: { users: true }, why });
const managers = (why: string): RouteAccess => ({ access: 'token', auth: { roles: MANAGER_ROLES }, why });

const ADOPTION_READ = "a read of the tenant's own journey; no data scope describes it";
const ADOPTION_WRITE = 'moves the rung, health and plans of the whole tenant: a managerial act';
const TEAM = "the tenant's team: who may sign in and with which role";
const CLIENTS = 'API access (spec: created by an Owner or Admin); a client token would escalate itself';
const WEBHOOKS = "where the tenant's events go and with which secret (issue 24: OWNER/ADMIN manage them)";
const AUDIT = 'who did what in the company, with addresses (issue 24: OWNER and ADMIN only)';

/**
 * The authorization decision of every route under /api/v1, keyed `METHOD /path` with Fastify's
 * `:param` syntax (HEAD follows GET). It is the only place a route's requirement is written:
 * the route-table plugin applies it to each route as it is registered (authentication hook and
 * `config.auth`), and refuses to register a route that has no entry here, so a new endpoint
 * cannot ship without a decision. docs/security.md ("Endpoint → scope / role table") is the
 * same table for people; the services re-check the writes themselves (zero trust).
 *
 * None of our routes serves product data, so none needs one of the spec's data scopes
 * (`products:*`, `connections:*`, `imports:write`, `traceability:read`, `dpp:read`): client
 * tokens may read the tenant's own account state and may not administer or write anything.
 */
export const ROUTE_TABLE = {
  // Token and session endpoints (spec: "Auth: none" or "public, origin-checked").
  'POST /oauth/token': open('client credentials in the body; limited per client'),
  'POST /auth/login': open('credentials in the body; limited per address and per account'),
  'POST /auth/refresh': open('the refresh token is the credential; limited per token'),
  'POST /auth/logout': anyUser('ends the signed-in session the token belongs to'),
  'POST /auth/v2/login': open('Origin allowlist; limited per address and per account'),
  'POST /auth/v2/refresh': open('Origin allowlist, refresh cookie and CSRF header'),
  'POST /auth/v2/logout': open('Origin allowlist and CSRF header; idempotent'),
  'POST /auth/v2/magic-link/request': open('Origin allowlist; always the same answer; limited'),
  'POST /auth/v2/magic-link/redeem': open('Origin allowlist; the single-use token is the credential'),
  'POST /auth/v2/signup': open('Origin allowlist; only sends a confirmation link; limited'),
  'GET /auth/v2/sso/:provider/start': open('browser redirect; single-use state'),
  'GET /auth/v2/sso/:provider/callback': open('browser redirect; state, PKCE and ID-token checks'),
  'POST /auth/v2/invitations/inspect': open('Origin allowlist; the single-use token is the credential'),
  'POST /auth/v2/invitations/accept': open('Origin allowlist; the single-use token is the credential'),
  'GET /auth/sessions': anyUser("the caller's own sessions; a client token has none"),
  'DELETE /auth/sessions/:id': anyUser("ends one of the caller's own sessions"),
  'POST /auth/sessions/revoke-others': anyUser("ends the caller's other sessions"),
  'GET /openapi.json': open('the published interface, nothing about any tenant'),
  'GET /docs': open('the API reference page rendered from /openapi.json; no tenant data'),
  'GET /docs/assets/:file': open("the reference page's own scripts and styles (a fixed list)"),

  'GET /tenant': anyToken("the caller's own company (id, name, slug, tier)"),
  'GET /tenant/join-requests': managers('who asks to join the company'),
  'POST /tenant/join-requests/:id/approve': managers('admits a user to the company (takes a seat)'),
  'POST /tenant/join-requests/:id/reject': managers('turns a join request down'),
  'GET /tenant/members': managers(TEAM),
  'PATCH /tenant/members/:userId': managers(`${TEAM}; identity: an ADMIN never touches an OWNER`),
  'POST /tenant/members/:userId/deactivate': managers(`${TEAM}; ends their sessions, frees the seat`),
  'POST /tenant/members/:userId/reactivate': managers(`${TEAM}; takes a seat`),
  'POST /tenant/invitations': managers('invites a user into the company (an ADMIN not an OWNER)'),
  'GET /tenant/invitations': managers('who was invited into the company'),
  'DELETE /tenant/invitations/:id': managers('withdraws an invitation'),
  'DELETE /tenant/members/:userId/sessions': managers("ends a member's sessions (an ADMIN not an OWNER's)"),

  'GET /tenant/adoption/state': anyToken(ADOPTION_READ),
  'GET /tenant/adoption/next-best-action': anyToken(ADOPTION_READ),
  'GET /tenant/adoption/coverage': anyToken(ADOPTION_READ),
  'GET /tenant/adoption/risk-signals': anyToken(ADOPTION_READ),
  'GET /tenant/adoption/health-explanation': anyToken(ADOPTION_READ),
  'GET /tenant/adoption/success-plan': anyToken(ADOPTION_READ),
  'POST /tenant/adoption/milestones/:key/complete': managers(ADOPTION_WRITE),
  'POST /tenant/adoption/success-plan': managers('spec: role OWNER or ADMIN'),
  'POST /tenant/adoption/success-plan/renew': managers('as create: it replaces the active plan'),

  'GET /entitlements/usage': anyToken('quota of the tenant; integrations check it before bulk work'),
  'POST /entitlements/can': anyToken('a question, changes nothing; integrations ask it before imports'),
  'GET /entitlements/upgrade-context': anyToken('what a higher tier would add; changes nothing'),
  'GET /entitlements/usage/history': anyToken('past points of the usage report; changes nothing'),

  'POST /oauth/clients': managers(CLIENTS),
  'GET /oauth/clients': managers(CLIENTS),
  'DELETE /oauth/clients/:clientId': managers(CLIENTS),
  'POST /oauth/clients/:clientId/rotate': managers(`${CLIENTS}; never the client's own token`),

  'POST /tenant/webhooks': managers(WEBHOOKS),
  'GET /tenant/webhooks': managers(WEBHOOKS),
  'GET /tenant/webhooks/:id': managers(WEBHOOKS),
  'PATCH /tenant/webhooks/:id': managers(WEBHOOKS),
  'DELETE /tenant/webhooks/:id': managers(WEBHOOKS),
  'POST /tenant/webhooks/:id/rotate-secret': managers(`${WEBHOOKS}; the new secret is in the answer`),
  'POST /tenant/webhooks/:id/test': managers(`${WEBHOOKS}; sends a signed request to its URL`),
  'GET /tenant/webhooks/:id/deliveries': managers(`${WEBHOOKS}; the delivery log`),
  'GET /tenant/webhooks/deliveries/:deliveryId/attempts': managers(`${WEBHOOKS}; the delivery log`),
  'POST /tenant/webhooks/deliveries/:deliveryId/replay': managers(`${WEBHOOKS}; sends the event again`),
  'GET /tenant/events': anyToken("the tenant's own events: members watch their journey, integrators poll"),
  'GET /tenant/audit-events': managers(AUDIT),
} as const satisfies Record<string, RouteAccess>;

export type RouteKey = keyof typeof ROUTE_TABLE;

/** The entry of a route (`path` without the /api/v1 prefix), or undefined when it has none. */
export function routeAccess(method: string, path: string): RouteAccess | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${path}`;
  return Object.hasOwn(ROUTE_TABLE, key) ? ROUTE_TABLE[key as RouteKey] : undefined;
}
