import type { OAuthClient__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { managers } from '../auth/access.js';
import { forwardedAuth } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { noContent } from '../openapi/responses.js';
import { ClientParams, CreateClientBody } from './identity-request-schemas.js';
import { createClientResponse, listClientsResponse, rotateClientResponse } from './identity-schemas.js';
import { operation } from './define-route.js';
import { clientsRoute as route } from './team-deps.js';

const clientJson = (client: OAuthClient__Output) => ({
  clientId: client.clientId,
  name: client.name,
  scopes: client.scopes,
  createdAt: client.createdAt,
  secretRotatedAt: client.secretRotatedAt,
});

const CLIENTS = 'API access (spec: created by an Owner or Admin); a client token would escalate itself';

/**
 * `POST /oauth/clients`, `GET /oauth/clients`, `DELETE /oauth/clients/{clientId}` and the spec's
 * `POST /oauth/clients/{clientId}/rotate`. A secret appears only in the answers of create and
 * rotate, which are marked `no-store`. Only a signed-in OWNER or ADMIN, never a client's own token
 * (identity checks again); another tenant's client is 404 OAUTH_CLIENT_NOT_FOUND.
 */
export const OAUTH_CLIENT_ROUTES = [
  route('POST /oauth/clients', {
    schema: { body: CreateClientBody, response: createClientResponse },
    access: managers(CLIENTS),
    // 404 TENANT_NOT_FOUND: a token outliving its tenant.
    operation: operation('oauth', 'createOAuthClient', 'Create an OAuth client (OWNER or ADMIN)', [404]),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ask = { name: request.body.name, scopes: request.body.scopes, tenantId: '' };
        const created = await unaryCall(clients.identity, 'CreateOAuthClient', ask, forwardedAuth(request));
        void reply.header('cache-control', 'no-store');
        return reply
          .status(201)
          .send(ok({ ...clientJson(created.client!), clientSecret: created.clientSecret }));
      },
  }),
  route('GET /oauth/clients', {
    schema: { response: listClientsResponse },
    access: managers(CLIENTS),
    operation: operation('oauth', 'listOAuthClients', "The tenant's OAuth clients (OWNER or ADMIN)"),
    handler:
      ({ clients }) =>
      async (request) => {
        const listed = await unaryCall(
          clients.identity,
          'ListOAuthClients',
          { tenantId: '' },
          forwardedAuth(request),
        );
        return ok({ clients: listed.clients.map(clientJson) });
      },
  }),
  route('DELETE /oauth/clients/:clientId', {
    schema: { params: ClientParams },
    access: managers(CLIENTS),
    operation: {
      ...operation('oauth', 'deleteOAuthClient', 'Delete an OAuth client (OWNER or ADMIN)', [404]),
      extraResponses: noContent('Deleted'),
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { clientId: request.params.clientId, tenantId: '' };
        await unaryCall(clients.identity, 'DeleteOAuthClient', ref, forwardedAuth(request));
        return reply.status(204).send();
      },
  }),
  route('POST /oauth/clients/:clientId/rotate', {
    schema: { params: ClientParams, response: rotateClientResponse },
    access: managers(`${CLIENTS}; never the client's own token`),
    // 409 OAUTH_CLIENT_ROTATION_CONFLICT: another rotation at the same time.
    operation: operation(
      'oauth',
      'rotateOAuthClientSecret',
      'A new client secret; the old one stops working',
      [404, 409],
    ),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { clientId: request.params.clientId, tenantId: '' };
        const rotated = await unaryCall(
          clients.identity,
          'RotateOAuthClientSecret',
          ref,
          forwardedAuth(request),
        );
        void reply.header('cache-control', 'no-store');
        return ok({
          clientId: rotated.client!.clientId,
          clientSecret: rotated.clientSecret,
          secretRotatedAt: rotated.client!.secretRotatedAt,
        });
      },
  }),
] as const;
