import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Invitation__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { CreateInvitationBody, InvitationParams } from './identity-request-schemas.js';
import { createInvitationResponse, listInvitationsResponse } from './identity-schemas.js';

/** An invitation as the API shows it (TEAM-API.md): never its token or the token's hash. */
export const invitationJson = (invitation: Invitation__Output) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: invitation.status,
  invitedBy: { id: invitation.invitedById, email: invitation.invitedByEmail },
  createdAt: invitation.createdAt,
  expiresAt: invitation.expiresAt,
});

/**
 * Invitations of the caller's tenant: an OWNER or ADMIN invites an address with a role, lists
 * the pending invitations and revokes one (the route table; identity checks the role again, and
 * that an ADMIN does not invite an OWNER).
 */
export async function tenantInvitationRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = options.clients;
  app.removeContentTypeParser('text/plain');

  app.post(
    '/tenant/invitations',
    { schema: { body: CreateInvitationBody, response: createInvitationResponse } },
    async (request, reply) => {
      const created = await unaryCall(
        identity,
        'CreateInvitation',
        { email: request.body.email, role: request.body.role },
        { authorization: callerOf(request).authorization },
      );
      void reply.header('cache-control', 'no-store');
      return reply.status(201).send(ok({ invitation: invitationJson(created) }));
    },
  );

  app.get(
    '/tenant/invitations',
    { schema: { response: listInvitationsResponse } },
    async (request, reply) => {
      const listed = await unaryCall(
        identity,
        'ListInvitations',
        {},
        { authorization: callerOf(request).authorization },
      );
      void reply.header('cache-control', 'no-store');
      return ok({ invitations: listed.invitations.map(invitationJson) });
    },
  );

  app.delete('/tenant/invitations/:id', { schema: { params: InvitationParams } }, async (request, reply) => {
    await unaryCall(
      identity,
      'RevokeInvitation',
      { id: request.params.id },
      { authorization: callerOf(request).authorization },
    );
    return reply.status(204).send();
  });
}
