import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Member__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { JoinRequestParams } from './identity-request-schemas.js';
import {
  ChangeRoleBody,
  listMembersResponse,
  MemberParams,
  memberResponse,
  rejectJoinRequestResponse,
} from './member-schemas.js';
import { seatLimitError } from './seat-limit.js';

const memberJson = (m: Member__Output) => ({
  id: m.id,
  email: m.email,
  firstName: m.firstName,
  lastName: m.lastName,
  role: m.role as 'OWNER' | 'ADMIN' | 'MEMBER',
  status: m.status as 'ACTIVE' | 'DEACTIVATED',
  lastSignInAt: m.lastSignInAt ?? null,
  createdAt: m.createdAt,
});

/**
 * The team of the caller's tenant (OWNER or ADMIN: the route table; identity checks again, and
 * decides who may change whom): list, change a role, deactivate, reactivate, reject a join request.
 */
export async function memberRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { clients } = options;
  const { identity } = clients;

  app.get('/tenant/members', { schema: { response: listMembersResponse } }, async (request) => {
    const { authorization } = callerOf(request);
    const listed = await unaryCall(identity, 'ListMembers', {}, { authorization });
    return ok({ members: listed.members.map(memberJson) });
  });

  app.patch(
    '/tenant/members/:userId',
    { schema: { params: MemberParams, body: ChangeRoleBody, response: memberResponse } },
    async (request) => {
      const { authorization } = callerOf(request);
      const member = await unaryCall(
        identity,
        'ChangeMemberRole',
        { userId: request.params.userId, role: request.body.role },
        { authorization },
      );
      return ok({ member: memberJson(member) });
    },
  );

  app.post(
    '/tenant/members/:userId/deactivate',
    { schema: { params: MemberParams, response: memberResponse } },
    async (request) => {
      const { authorization } = callerOf(request);
      const member = await unaryCall(
        identity,
        'DeactivateMember',
        { userId: request.params.userId },
        { authorization },
      );
      return ok({ member: memberJson(member) });
    },
  );

  app.post(
    '/tenant/members/:userId/reactivate',
    { schema: { params: MemberParams, response: memberResponse } },
    async (request, reply) => {
      const { authorization } = callerOf(request);
      try {
        const member = await unaryCall(
          identity,
          'ReactivateMember',
          { userId: request.params.userId },
          { authorization },
        );
        return ok({ member: memberJson(member) });
      } catch (error) {
        const refused = await seatLimitError(error, clients, authorization);
        if (refused) return sendHttpError(reply, refused);
        throw error;
      }
    },
  );

  app.post(
    '/tenant/join-requests/:id/reject',
    { schema: { params: JoinRequestParams, response: rejectJoinRequestResponse } },
    async (request) => {
      const { authorization } = callerOf(request);
      const { tenantId: _tenantId, ...rejected } = await unaryCall(
        identity,
        'RejectJoinRequest',
        { id: request.params.id },
        { authorization },
      );
      return ok({ request: rejected });
    },
  );
}
