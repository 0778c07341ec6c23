import { tokenResponse } from '../routes/identity-schemas.js';
import type { ErrorStatus, ErrorStyle } from './error-responses.js';

/**
 * Who may call an operation, as the document's `security`:
 * - `bearer`: an access token as `Authorization: Bearer` (a user's or an OAuth client's), or the
 *   browser's `svc_session` cookie, with `X-CSRF-Token` on state-changing methods;
 * - `public`: no credentials (the token endpoints take theirs in the body; /auth/v2 checks Origin).
 */
export type Access = 'bearer' | 'public';

/** What the document says about one route beyond its Fastify schema. */
export interface OperationDoc {
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly access: Access;
  readonly style: ErrorStyle;
  readonly errors: readonly ErrorStatus[];
  /** Answers with no JSON schema in the route (204, 302, bodies Fastify does not serialise). */
  readonly extraResponses?: Readonly<Record<string, object>>;
}

export const TAGS = {
  meta: 'This document',
  oauth: 'OAuth 2.0 client credentials and client management',
  'auth-v1': 'Bearer login with rotating refresh tokens',
  'auth-v2': 'Browser cookie sessions, magic links and SSO (Origin allowlist, CSRF)',
  tenant: "The caller's tenant, its members and its join requests",
  adoption: 'Adoption state, milestones, coverage, risk signals, success plans',
  entitlements: 'Usage, `can` checks and upgrade context',
  notifications: 'Signed webhooks, the events feed (JSON and server-sent events) and the audit log',
} as const;
export type Tag = keyof typeof TAGS;

const READ: readonly ErrorStatus[] = [400, 401, 403, 404, 409, 429, 503];
const WRITE: readonly ErrorStatus[] = [400, 401, 403, 404, 409, 413, 415, 429, 503];
// A 415 on the token endpoints is answered 400 invalid_request (spec's authentication errors).
const TOKEN: readonly ErrorStatus[] = [400, 401, 403, 413, 429, 503];
const BROWSER: readonly ErrorStatus[] = [400, 401, 403, 404, 409, 413, 415, 429, 503];

const noContent = (description: string) => ({ 204: { description, type: 'null' } });
/**
 * The SSO routes' one answer: a redirect with no body, failures included (spec: "Both SSO
 * endpoints answer 302, not JSON"). Only the router's own refusals (an over-long path
 * parameter) and a draining process answer JSON.
 */
const redirect = (description: string) => ({
  302: {
    description,
    type: 'null',
    headers: {
      Location: {
        type: 'string',
        format: 'uri',
        description: 'Where the browser goes next (an absolute URL)',
      },
      'Cache-Control': { type: 'string', const: 'no-store', description: 'Never cached' },
    },
  },
});
const SSO_FAILURE =
  'every failure goes to `{APP_URL}/auth/sso/error?reason=<reason>` (docs/browser-sessions.md), ' +
  'over the per-address start limit `reason=rate_limited` with Retry-After';

const api = (operationId: string, tag: Tag, summary: string, write = false): OperationDoc => ({
  operationId,
  tag,
  summary,
  access: 'bearer',
  style: 'api',
  errors: write ? WRITE : READ,
});
const browser = (operationId: string, summary: string, extra?: OperationDoc['extraResponses']) => ({
  operationId,
  tag: 'auth-v2' as const,
  summary,
  access: 'public' as const,
  style: 'browser' as const,
  errors: BROWSER,
  ...(extra ? { extraResponses: extra } : {}),
});

/**
 * Every route the gateway serves, keyed `METHOD url` as Fastify registers it. A route missing
 * here fails the document's test: a new endpoint is not served undocumented.
 */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  'GET /api/v1/openapi.json': {
    operationId: 'getOpenApiDocument',
    tag: 'meta',
    summary: 'This OpenAPI 3.1 document',
    access: 'public',
    style: 'api',
    errors: [],
    extraResponses: {
      200: {
        description: 'The document',
        type: 'object',
        required: ['openapi', 'info', 'paths'],
        properties: { openapi: { const: '3.1.0' } },
      },
    },
  },
  'POST /api/v1/oauth/token': {
    operationId: 'issueClientToken',
    tag: 'oauth',
    summary: 'Client credentials grant: a bearer token for an OAuth client',
    access: 'public',
    style: 'oauth',
    errors: TOKEN,
    // RFC 6749 §5.1. The route sets no response schema; its handler writes exactly these fields.
    extraResponses: tokenResponse,
  },
  'POST /api/v1/oauth/clients': api(
    'createOAuthClient',
    'oauth',
    'Create an OAuth client (OWNER or ADMIN)',
    true,
  ),
  'GET /api/v1/oauth/clients': api(
    'listOAuthClients',
    'oauth',
    "The tenant's OAuth clients (OWNER or ADMIN)",
  ),
  'DELETE /api/v1/oauth/clients/:clientId': {
    ...api('deleteOAuthClient', 'oauth', 'Delete an OAuth client (OWNER or ADMIN)', true),
    extraResponses: noContent('Deleted'),
  },
  'POST /api/v1/oauth/clients/:clientId/rotate': api(
    'rotateOAuthClientSecret',
    'oauth',
    'A new client secret; the old one stops working',
    true,
  ),
  'POST /api/v1/auth/login': {
    operationId: 'login',
    tag: 'auth-v1',
    summary: 'Sign in with email and password: access and refresh token',
    access: 'public',
    style: 'oauth',
    errors: TOKEN,
  },
  'POST /api/v1/auth/refresh': {
    operationId: 'refresh',
    tag: 'auth-v1',
    summary: 'Rotate a refresh token: a new pair; reuse of an old one ends the session',
    access: 'public',
    style: 'oauth',
    errors: TOKEN,
  },
  'POST /api/v1/auth/logout': {
    operationId: 'logout',
    tag: 'auth-v1',
    summary: "End the token's session",
    access: 'bearer',
    style: 'oauth',
    errors: TOKEN,
    extraResponses: noContent('Signed out'),
  },
  'POST /api/v1/auth/v2/login': browser(
    'browserLogin',
    'Sign in: sets the session, refresh and CSRF cookies',
  ),
  'POST /api/v1/auth/v2/refresh': browser(
    'browserRefresh',
    'Rotate the session from the refresh cookie (needs X-CSRF-Token)',
    noContent('Rotated; new cookies set'),
  ),
  'POST /api/v1/auth/v2/logout': browser(
    'browserLogout',
    'End the cookie session and clear the cookies (idempotent)',
    noContent('Signed out; cookies cleared'),
  ),
  'POST /api/v1/auth/v2/magic-link/request': browser(
    'requestMagicLink',
    'Mail a sign-in link (same answer whether or not the address has an account)',
  ),
  'POST /api/v1/auth/v2/signup': browser('startSignup', 'Mail a passwordless sign-up link'),
  'POST /api/v1/auth/v2/magic-link/redeem': browser(
    'redeemMagicLink',
    'Redeem a magic-link token from the URL fragment',
  ),
  'GET /api/v1/auth/v2/sso/:provider/start': {
    operationId: 'startSso',
    tag: 'auth-v2',
    summary: 'Start OIDC sign-in with a provider (302)',
    access: 'public',
    style: 'api',
    errors: [400, 503],
    extraResponses: redirect(
      `To the provider's authorization endpoint (PKCE, state in the svc_sso cookie); ${SSO_FAILURE}`,
    ),
  },
  'GET /api/v1/auth/v2/sso/:provider/callback': {
    operationId: 'finishSso',
    tag: 'auth-v2',
    summary: 'The provider’s redirect back (302)',
    access: 'public',
    style: 'api',
    errors: [400, 503],
    extraResponses: redirect(
      `To returnTo on the web app with the session cookies, to the app's confirm-email or pending-approval page; ${SSO_FAILURE}`,
    ),
  },
  'GET /api/v1/tenant': api('getTenant', 'tenant', "The caller's tenant and tier"),
  'GET /api/v1/tenant/join-requests': api(
    'listJoinRequests',
    'tenant',
    'Pending join requests (OWNER or ADMIN)',
  ),
  'POST /api/v1/tenant/join-requests/:id/approve': api(
    'approveJoinRequest',
    'tenant',
    'Approve a join request (OWNER or ADMIN)',
    true,
  ),
  'POST /api/v1/tenant/join-requests/:id/reject': api(
    'rejectJoinRequest',
    'tenant',
    'Reject a pending join request (OWNER or ADMIN)',
    true,
  ),
  'GET /api/v1/tenant/members': api(
    'listMembers',
    'tenant',
    'Members of the tenant: role, status, last sign-in (OWNER or ADMIN)',
  ),
  'PATCH /api/v1/tenant/members/:userId': api(
    'changeMemberRole',
    'tenant',
    "Change a member's role; 409 LAST_OWNER, 403 FORBIDDEN_ROLE (OWNER or ADMIN)",
    true,
  ),
  'POST /api/v1/tenant/members/:userId/deactivate': api(
    'deactivateMember',
    'tenant',
    'Deactivate a member: sessions end, the seat is freed (OWNER or ADMIN)',
    true,
  ),
  'POST /api/v1/tenant/members/:userId/reactivate': api(
    'reactivateMember',
    'tenant',
    'Reactivate a member: takes a seat, 403 LIMIT_EXCEEDED when none is left (OWNER or ADMIN)',
    true,
  ),
  'GET /api/v1/tenant/adoption/state': api('getAdoptionState', 'adoption', 'The adoption state'),
  'POST /api/v1/tenant/adoption/milestones/:key/complete': api(
    'completeMilestone',
    'adoption',
    'Complete a manual milestone; the recomputed state',
    true,
  ),
  'GET /api/v1/tenant/adoption/next-best-action': api(
    'getNextBestAction',
    'adoption',
    'The ranked next milestone, available and locked ones',
  ),
  'GET /api/v1/tenant/adoption/coverage': api('getCoverage', 'adoption', 'Coverage cells'),
  'GET /api/v1/tenant/adoption/risk-signals': api(
    'listRiskSignals',
    'adoption',
    'Active risk signals, newest first',
  ),
  'GET /api/v1/tenant/adoption/health-explanation': api(
    'getHealthExplanation',
    'adoption',
    'How the health score and maturity rung were reached',
  ),
  'GET /api/v1/tenant/adoption/success-plan': api(
    'getSuccessPlan',
    'adoption',
    'The active success plan or null',
  ),
  'POST /api/v1/tenant/adoption/success-plan': api(
    'createSuccessPlan',
    'adoption',
    'Create a success plan (OWNER or ADMIN); 409 if one is active',
    true,
  ),
  'POST /api/v1/tenant/adoption/success-plan/renew': api(
    'renewSuccessPlan',
    'adoption',
    'Renew a success plan; the recomputed state',
    true,
  ),
  'POST /api/v1/tenant/invitations': api(
    'createInvitation',
    'tenant',
    'Invite an address with a role; mails a single-use link valid 7 days (OWNER or ADMIN)',
    true,
  ),
  'GET /api/v1/tenant/invitations': api(
    'listInvitations',
    'tenant',
    'Pending invitations of the tenant (OWNER or ADMIN)',
  ),
  'DELETE /api/v1/tenant/invitations/:id': {
    ...api('revokeInvitation', 'tenant', 'Revoke a pending invitation (OWNER or ADMIN)', true),
    extraResponses: noContent('Revoked'),
  },
  'DELETE /api/v1/tenant/members/:userId/sessions': api(
    'endMemberSessions',
    'tenant',
    "End every session of a member (OWNER or ADMIN; an ADMIN not an OWNER's)",
    true,
  ),
  'POST /api/v1/auth/v2/invitations/inspect': browser(
    'inspectInvitation',
    'What an invitation token offers (it stays usable)',
  ),
  'POST /api/v1/auth/v2/invitations/accept': browser(
    'acceptInvitation',
    'Accept an invitation: creates or links the account, takes a seat, sets the session cookies',
  ),
  'GET /api/v1/auth/sessions': api('listSessions', 'auth-v1', "The caller's own sessions"),
  'DELETE /api/v1/auth/sessions/:id': {
    ...api('endSession', 'auth-v1', "End one of the caller's own sessions", true),
    extraResponses: noContent('Ended'),
  },
  'POST /api/v1/auth/sessions/revoke-others': api(
    'endOtherSessions',
    'auth-v1',
    'End every session of the caller but the current one',
    true,
  ),
  'GET /api/v1/entitlements/usage': api('getUsage', 'entitlements', 'The usage report'),
  'POST /api/v1/entitlements/can': api(
    'can',
    'entitlements',
    'May the tenant do this? (200 even when not)',
    true,
  ),
  'GET /api/v1/entitlements/upgrade-context': api(
    'getUpgradeContext',
    'entitlements',
    'What an upgrade would unlock for a capability',
  ),
  'GET /api/v1/entitlements/usage/history': api(
    'getUsageHistory',
    'entitlements',
    'Daily or monthly points of a limit or of API requests, 13 months kept (JSON or CSV)',
  ),
  'POST /api/v1/tenant/webhooks': api(
    'createWebhook',
    'notifications',
    'Register a webhook endpoint; its `whsec_` secret is in this answer only (OWNER or ADMIN)',
    true,
  ),
  'GET /api/v1/tenant/webhooks': api(
    'listWebhooks',
    'notifications',
    "The tenant's webhook endpoints, never a secret (OWNER or ADMIN)",
  ),
  'GET /api/v1/tenant/webhooks/:id': api(
    'getWebhook',
    'notifications',
    'One webhook endpoint (OWNER or ADMIN)',
  ),
  'PATCH /api/v1/tenant/webhooks/:id': api(
    'updateWebhook',
    'notifications',
    'Change the subscribed types and/or enable or disable an endpoint (OWNER or ADMIN)',
    true,
  ),
  'DELETE /api/v1/tenant/webhooks/:id': {
    ...api('deleteWebhook', 'notifications', 'Delete an endpoint; its queued deliveries are dropped', true),
    extraResponses: noContent('Deleted'),
  },
  'POST /api/v1/tenant/webhooks/:id/rotate-secret': api(
    'rotateWebhookSecret',
    'notifications',
    'A new secret (shown once); the old one keeps signing beside it for 24 h',
    true,
  ),
  'POST /api/v1/tenant/webhooks/:id/test': api(
    'sendTestWebhook',
    'notifications',
    'Queue a signed `webhook.test` event to this endpoint now; 409 ENDPOINT_DISABLED when disabled',
    true,
  ),
  'GET /api/v1/tenant/webhooks/:id/deliveries': api(
    'listWebhookDeliveries',
    'notifications',
    "An endpoint's latest deliveries, newest first (OWNER or ADMIN)",
  ),
  'GET /api/v1/tenant/webhooks/deliveries/:deliveryId/attempts': api(
    'listWebhookDeliveryAttempts',
    'notifications',
    'Every attempt of a delivery: status, error, latency, next retry (OWNER or ADMIN)',
  ),
  'POST /api/v1/tenant/webhooks/deliveries/:deliveryId/replay': {
    ...api('replayWebhookDelivery', 'notifications', 'Send a delivery again now, same `webhook-id`', true),
    extraResponses: { 202: { description: 'Queued', type: 'null' } },
  },
  'GET /api/v1/tenant/events': api(
    'listEvents',
    'notifications',
    "The tenant's events after a cursor, oldest first, kept 30 days; server-sent events with Accept: text/event-stream (429 over the open-stream cap)",
  ),
  'GET /api/v1/tenant/audit-events': api(
    'listAuditEvents',
    'notifications',
    'The audit log, newest first, filtered by action, actor and time range (≤ 400 days); CSV with format=csv (OWNER or ADMIN)',
  ),
};

/** The key of a route in OPERATIONS. */
export const operationKey = (method: string, url: string): string => `${method} ${url}`;
