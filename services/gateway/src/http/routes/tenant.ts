import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';
import { callerOf } from '../auth/caller.js';
import { Envelope } from '../typebox.js';

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

/**
 * `GET /tenant`: the caller's company as the spec's cookie-session user shows it
 * (`{ id, name, slug, subscriptionTier }`): identity owns the tenant, entitlements its tier.
 */
export async function tenantRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  const { clients } = options;
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/tenant', { schema: { response: tenantResponse } }, async (request) => {
    const settings = { authorization: callerOf(request).authorization };
    const [tenant, tier] = await Promise.all([
      unaryCall(clients.identity, 'GetTenant', {}, settings),
      unaryCall(clients.entitlements, 'GetTier', {}, settings),
    ]);
    return ok({ id: tenant.id, name: tenant.name, slug: tenant.slug, subscriptionTier: tier.tierCode });
  });
}
