import type { OAuthClient__Output } from '@tap/contracts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';
import { ClientParams, CreateClientBody } from './identity-request-schemas.js';
import { createClientResponse, listClientsResponse, rotateClientResponse } from './identity-schemas.js';
import { callerOf } from '../auth/caller.js';

const clientJson = (client: OAuthClient__Output) => ({
  clientId: client.clientId,
  name: client.name,
  scopes: client.scopes,
  createdAt: client.createdAt,
  secretRotatedAt: client.secretRotatedAt,
});

/**
 * `POST /oauth/clients`, `GET /oauth/clients`, `DELETE /oauth/clients/{clientId}` and the spec's
 * `POST /oauth/clients/{clientId}/rotate`. A secret appears only in the answers of create and
 * rotate, which are marked `no-store`. Only a signed-in OWNER or ADMIN, never a client's own token
 * (the route table, http/auth/route-table.ts; identity checks again).
 */
export async function oauthClientRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  // Request and reply types come from the TypeBox schemas (identity-request-schemas.ts,
  // identity-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = options.clients;
  app.removeContentTypeParser('text/plain');

  app.post(
    '/oauth/clients',
    { schema: { body: CreateClientBody, response: createClientResponse } },
    async (request, reply) => {
      const created = await unaryCall(
        identity,
        'CreateOAuthClient',
        { name: request.body.name, scopes: request.body.scopes, tenantId: '' },
        { authorization: callerOf(request).authorization },
      );
      void reply.header('cache-control', 'no-store');
      return reply
        .status(201)
        .send(ok({ ...clientJson(created.client!), clientSecret: created.clientSecret }));
    },
  );

  app.get('/oauth/clients', { schema: { response: listClientsResponse } }, async (request) => {
    const listed = await unaryCall(
      identity,
      'ListOAuthClients',
      { tenantId: '' },
      { authorization: callerOf(request).authorization },
    );
    return ok({ clients: listed.clients.map(clientJson) });
  });

  app.delete('/oauth/clients/:clientId', { schema: { params: ClientParams } }, async (request, reply) => {
    await unaryCall(
      identity,
      'DeleteOAuthClient',
      { clientId: request.params.clientId, tenantId: '' },
      { authorization: callerOf(request).authorization },
    );
    return reply.status(204).send();
  });

  app.post(
    '/oauth/clients/:clientId/rotate',
    { schema: { params: ClientParams, response: rotateClientResponse } },
    async (request, reply) => {
      const rotated = await unaryCall(
        identity,
        'RotateOAuthClientSecret',
        { clientId: request.params.clientId, tenantId: '' },
        { authorization: callerOf(request).authorization },
      );
      void reply.header('cache-control', 'no-store');
      return ok({
        clientId: rotated.client!.clientId,
        clientSecret: rotated.clientSecret,
        secretRotatedAt: rotated.client!.secretRotatedAt,
      });
    },
  );
}
