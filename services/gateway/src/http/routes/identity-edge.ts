import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import type { GatewayConfig } from '../../config.js';
import { originSet } from '../browser/origin-allowlist.js';
import { authV1Routes } from './auth-v1.js';
import type { SsoStateStore } from '../../sso-states.js';
import { ACCOUNT_SESSION_ROUTES } from './account-sessions.js';
import { authV2InvitationRoutes } from './auth-v2-invitations.js';
import { authV2MagicLinkRoutes } from './auth-v2-magic-links.js';
import { authV2SsoRoutes } from './auth-v2-sso.js';
import { authV2Routes } from './auth-v2.js';
import { registerRoutes } from './define-route.js';
import { JOIN_REQUEST_ROUTES } from './join-requests.js';
import { MEMBER_ROUTES } from './members.js';
import { OAUTH_CLIENT_ROUTES } from './oauth-clients.js';
import { oauthTokenRoutes } from './oauth-token.js';
import type { ClientsDeps } from './team-deps.js';
import { TENANT_INVITATION_ROUTES } from './tenant-invitations.js';

/**
 * Identity's HTTP surface: the v1 token and session endpoints, the /auth/v2 cookie sessions
 * (each group encapsulated, with its own body parsing and error style) and OAuth client management.
 */
export async function identityEdgeRoutes(
  app: FastifyInstance,
  options: {
    clients: ServiceClients;
    limiter: RateLimiter;
    browser?: GatewayConfig['browser'] | undefined;
    ssoStates?: SsoStateStore | undefined;
  },
): Promise<void> {
  const { clients, limiter } = options;
  await app.register(oauthTokenRoutes, { clients, limiter });
  await app.register(authV1Routes, { clients, limiter });
  // The browser surface (docs/browser-sessions.md): served when its allowlist is configured.
  if (options.browser) {
    const browser = {
      allowedOrigins: originSet(options.browser.allowedOrigins),
      cookieDomain: options.browser.cookieDomain,
    };
    await app.register(authV2Routes, { clients, limiter, browser });
    await app.register(authV2MagicLinkRoutes, { clients, limiter, browser });
    await app.register(authV2InvitationRoutes, { clients, limiter, browser });
    const sso = options.browser.sso;
    if (sso && sso.providers.length > 0 && options.ssoStates) {
      await app.register(authV2SsoRoutes, {
        clients,
        limiter,
        states: options.ssoStates,
        ...sso,
        allowedOrigins: browser.allowedOrigins,
        cookieDomain: browser.cookieDomain,
      });
    }
  }
  await app.register(teamRoutes, { clients });
}

/** The tenant's team, its sessions and its API access: routes that need only the service clients. */
export const TEAM_ROUTES = [
  ...JOIN_REQUEST_ROUTES,
  ...MEMBER_ROUTES,
  ...TENANT_INVITATION_ROUTES,
  ...ACCOUNT_SESSION_ROUTES,
  ...OAUTH_CLIENT_ROUTES,
] as const;

/** Registers TEAM_ROUTES: JSON bodies only. */
async function teamRoutes(app: FastifyInstance, deps: ClientsDeps): Promise<void> {
  // Without this Fastify's text/plain parser would hand the schema a string.
  app.removeContentTypeParser('text/plain');
  registerRoutes(app, TEAM_ROUTES, deps);
}
