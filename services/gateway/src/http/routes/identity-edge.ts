import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { authV1Routes } from './auth-v1.js';
import { oauthClientRoutes } from './oauth-clients.js';
import { oauthTokenRoutes } from './oauth-token.js';

/**
 * Identity's HTTP surface: the v1 token and session endpoints (each group encapsulated, with
 * its own body parsing and error style) and OAuth client management.
 */
export async function identityEdgeRoutes(
  app: FastifyInstance,
  options: { clients: ServiceClients; limiter: RateLimiter },
): Promise<void> {
  await app.register(oauthTokenRoutes, options);
  await app.register(authV1Routes, options);
  await app.register(oauthClientRoutes, { clients: options.clients });
}
