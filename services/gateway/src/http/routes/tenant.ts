import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { envelopeSchema, ok } from '../envelope.js';
import { callerOf } from '../auth/caller.js';

const tenantSchema = {
  type: 'object',
  required: ['id', 'name', 'slug', 'subscriptionTier'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    slug: { type: 'string' },
    subscriptionTier: { type: 'string' },
  },
};

/**
 * `GET /tenant`: the caller's company as the spec's cookie-session user shows it
 * (`{ id, name, slug, subscriptionTier }`): identity owns the tenant, entitlements its tier.
 */
export async function tenantRoutes(
  app: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  const { clients } = options;
  app.get('/tenant', { schema: { response: { 200: envelopeSchema(tenantSchema) } } }, async (request) => {
    const settings = { authorization: callerOf(request).authorization };
    const [tenant, tier] = await Promise.all([
      unaryCall(clients.identity, 'GetTenant', {}, settings),
      unaryCall(clients.entitlements, 'GetTier', {}, settings),
    ]);
    return ok({ id: tenant.id, name: tenant.name, slug: tenant.slug, subscriptionTier: tier.tierCode });
  });
}
