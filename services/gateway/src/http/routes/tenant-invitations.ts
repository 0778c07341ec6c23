import type { Invitation__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { managers } from '../auth/access.js';
import { forwardedAuth } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { noContent } from '../openapi/responses.js';
import { CreateInvitationBody, InvitationParams } from './identity-request-schemas.js';
import { createInvitationResponse, listInvitationsResponse } from './identity-schemas.js';
import { clientsRoute as route } from './team-deps.js';

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
 * the pending invitations and revokes one (identity checks the role again, and that an ADMIN
 * does not invite an OWNER: 403 FORBIDDEN_ROLE).
 */
export const TENANT_INVITATION_ROUTES = [
  route('POST /tenant/invitations', {
    schema: { body: CreateInvitationBody, response: createInvitationResponse },
    access: managers('invites a user into the company (an ADMIN not an OWNER)'),
    operation: {
      operationId: 'createInvitation',
      tag: 'tenant',
      summary: 'Invite an address with a role; mails a single-use link valid 7 days (OWNER or ADMIN)',
      // 404: the inviter's tenant or account is gone; 409 ALREADY_MEMBER or INVITATION_PENDING.
      errors: [404, 409],
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const invite = { email: request.body.email, role: request.body.role };
        const created = await unaryCall(clients.identity, 'CreateInvitation', invite, forwardedAuth(request));
        void reply.header('cache-control', 'no-store');
        return reply.status(201).send(ok({ invitation: invitationJson(created) }));
      },
  }),
  route('GET /tenant/invitations', {
    schema: { response: listInvitationsResponse },
    access: managers('who was invited into the company'),
    operation: {
      operationId: 'listInvitations',
      tag: 'tenant',
      summary: 'Pending invitations of the tenant (OWNER or ADMIN)',
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const listed = await unaryCall(clients.identity, 'ListInvitations', {}, forwardedAuth(request));
        void reply.header('cache-control', 'no-store');
        return ok({ invitations: listed.invitations.map(invitationJson) });
      },
  }),
  route('DELETE /tenant/invitations/:id', {
    schema: { params: InvitationParams },
    access: managers('withdraws an invitation'),
    operation: {
      operationId: 'revokeInvitation',
      tag: 'tenant',
      summary: 'Revoke a pending invitation (OWNER or ADMIN)',
      // 404 INVITATION_NOT_FOUND.
      errors: [404],
      extraResponses: noContent('Revoked'),
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        await unaryCall(
          clients.identity,
          'RevokeInvitation',
          { id: request.params.id },
          forwardedAuth(request),
        );
        return reply.status(204).send();
      },
  }),
] as const;
