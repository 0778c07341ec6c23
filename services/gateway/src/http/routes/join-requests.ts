import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';
import { JoinRequestParams } from './identity-request-schemas.js';
import { approveJoinRequestResponse, listJoinRequestsResponse } from './identity-schemas.js';
import { callerOf } from '../auth/caller.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { seatLimitError } from './seat-limit.js';

/**
 * Join requests of the caller's tenant (sign-ups from a domain that gates joins): an OWNER or
 * ADMIN lists the pending ones and approves one (the route table; identity checks the role again).
 */
export async function joinRequestRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  // Request and reply types come from the TypeBox schemas (identity-request-schemas.ts,
  // identity-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = options.clients;
  app.get('/tenant/join-requests', { schema: { response: listJoinRequestsResponse } }, async (request) => {
    const listed = await unaryCall(
      identity,
      'ListJoinRequests',
      { tenantId: '' },
      { authorization: callerOf(request).authorization },
    );
    return ok({ requests: listed.requests.map(({ tenantId: _tenantId, ...rest }) => rest) });
  });

  app.post(
    '/tenant/join-requests/:id/approve',
    { schema: { params: JoinRequestParams, response: approveJoinRequestResponse } },
    async (request, reply) => {
      const { authorization } = callerOf(request);
      try {
        const { tenantId: _tenantId, ...approved } = await unaryCall(
          identity,
          'ApproveJoinRequest',
          { tenantId: '', id: request.params.id },
          { authorization },
        );
        return ok(approved);
      } catch (error) {
        // No seat left: 403 LIMIT_EXCEEDED with the upgrade context; the request stays pending.
        const refused = await seatLimitError(error, options.clients, authorization);
        if (refused) return sendHttpError(reply, refused);
        throw error;
      }
    },
  );
}
