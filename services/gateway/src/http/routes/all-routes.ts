import { API_REFERENCE_ROUTES } from '../docs/api-reference-routes.js';
import { OPENAPI_ROUTES } from '../openapi/openapi-route.js';
import { ADOPTION_ROUTES } from './adoption.js';
import { AUDIT_EVENT_ROUTES } from './audit-events.js';
import { AUTH_V1_ROUTES } from './auth-v1.js';
import { INVITATION_ACCEPT_ROUTES } from './auth-v2-invitations.js';
import { MAGIC_LINK_ROUTES } from './auth-v2-magic-links.js';
import { SSO_ROUTES } from './auth-v2-sso.js';
import { AUTH_V2_ROUTES } from './auth-v2.js';
import { ENTITLEMENT_ROUTES } from './entitlements.js';
import { EVENTS_FEED_ROUTES } from './events-feed.js';
import { TEAM_ROUTES } from './identity-edge.js';
import { OAUTH_TOKEN_ROUTES } from './oauth-token.js';
import { TENANT_ROUTES } from './tenant.js';
import { USAGE_HISTORY_ROUTES } from './usage-history.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

/**
 * Every route the gateway serves under /api/v1, each declared once where its handler is
 * (routes/define-route.ts): method, path, schemas, access decision, what the document says,
 * handler. The route table (auth/route-table.ts) and the OpenAPI operations
 * (openapi/operations.ts) are built from this list; each group's plugin registers its part
 * (registerRoutes), so a route is registered, authorised and documented from one declaration.
 */
export const ALL_ROUTES = [
  ...OPENAPI_ROUTES,
  ...API_REFERENCE_ROUTES,
  ...OAUTH_TOKEN_ROUTES,
  ...AUTH_V1_ROUTES,
  ...AUTH_V2_ROUTES,
  ...MAGIC_LINK_ROUTES,
  ...INVITATION_ACCEPT_ROUTES,
  ...SSO_ROUTES,
  ...TEAM_ROUTES,
  ...TENANT_ROUTES,
  ...ADOPTION_ROUTES,
  ...ENTITLEMENT_ROUTES,
  ...USAGE_HISTORY_ROUTES,
  ...WEBHOOK_ROUTES,
  ...EVENTS_FEED_ROUTES,
  ...AUDIT_EVENT_ROUTES,
] as const;
