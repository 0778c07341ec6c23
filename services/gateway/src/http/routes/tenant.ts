import { Type } from '@sinclair/typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { anyToken } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { Envelope } from '../typebox.js';
import { operation, registerRoutes, routesOf } from './define-route.js';

const tenantResponse = {
  200: Envelope(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      slug: Type.String(),
      subscriptionTier: Type.String(),
    }),
  ),
};

const route = routesOf<{ clients: ServiceClients }>();

/**
 * `GET /tenant`: the caller's company as the spec's cookie-session user shows it
 * (`{ id, name, slug, subscriptionTier }`): identity owns the tenant, entitlements its tier.
 */
export const TENANT_ROUTES = [
  route('GET /tenant', {
    schema: { response: tenantResponse },
    access: anyToken("the caller's own company (id, name, slug, tier)"),
    // 404 TENANT_NOT_FOUND: a token outliving its tenant.
    operation: operation('tenant', 'getTenant', "The caller's tenant and tier", [404]),
    handler:
      ({ clients }) =>
      async (request) => {
        const settings = { authorization: callerOf(request).authorization };
        const [tenant, tier] = await Promise.all([
          unaryCall(clients.identity, 'GetTenant', {}, settings),
          unaryCall(clients.entitlements, 'GetTier', {}, settings),
        ]);
        return ok({ id: tenant.id, name: tenant.name, slug: tenant.slug, subscriptionTier: tier.tierCode });
      },
  }),
] as const;

/** Registers TENANT_ROUTES. */
export async function tenantRoutes(app: FastifyInstance, deps: { clients: ServiceClients }): Promise<void> {
  registerRoutes(app, TENANT_ROUTES, deps);
}
