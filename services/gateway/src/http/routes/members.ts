import type { Member__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { callerOf, forwardedAuth } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { wireJson } from '../wire-json.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { ChangeRoleBody, listMembersResponse, MemberParams, memberResponse } from './member-schemas.js';
import { seatLimitError } from './seat-limit.js';
import { operation } from './define-route.js';
import { clientsRoute as route, manageTeam } from './team-deps.js';

const memberJson = (m: Member__Output) => ({
  ...wireJson(m, ['lastSignInAt']),
  role: m.role as 'OWNER' | 'ADMIN' | 'MEMBER',
  status: m.status as 'ACTIVE' | 'DEACTIVATED',
});

/**
 * The team of the caller's tenant (OWNER or ADMIN; identity checks again, and decides who may
 * change whom: 403 FORBIDDEN_ROLE): list, change a role, deactivate, reactivate. Another
 * tenant's user is 404 USER_NOT_FOUND; the last active OWNER stays (409 LAST_OWNER).
 */
export const MEMBER_ROUTES = [
  route('GET /tenant/members', {
    schema: { response: listMembersResponse },
    access: manageTeam(),
    operation: operation(
      'tenant',
      'listMembers',
      'Members of the tenant: role, status, last sign-in (OWNER or ADMIN)',
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const listed = await unaryCall(clients.identity, 'ListMembers', {}, forwardedAuth(request));
        return ok({ members: listed.members.map(memberJson) });
      },
  }),
  route('PATCH /tenant/members/:userId', {
    schema: { params: MemberParams, body: ChangeRoleBody, response: memberResponse },
    access: manageTeam('identity: an ADMIN never touches an OWNER'),
    operation: operation(
      'tenant',
      'changeMemberRole',
      "Change a member's role; 409 LAST_OWNER, 403 FORBIDDEN_ROLE (OWNER or ADMIN)",
      [404, 409],
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const change = { userId: request.params.userId, role: request.body.role };
        const member = await unaryCall(clients.identity, 'ChangeMemberRole', change, forwardedAuth(request));
        return ok({ member: memberJson(member) });
      },
  }),
  route('POST /tenant/members/:userId/deactivate', {
    schema: { params: MemberParams, response: memberResponse },
    access: manageTeam('ends their sessions, frees the seat'),
    operation: operation(
      'tenant',
      'deactivateMember',
      'Deactivate a member: sessions end, the seat is freed (OWNER or ADMIN)',
      [404, 409],
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const ref = { userId: request.params.userId };
        const member = await unaryCall(clients.identity, 'DeactivateMember', ref, forwardedAuth(request));
        return ok({ member: memberJson(member) });
      },
  }),
  route('POST /tenant/members/:userId/reactivate', {
    schema: { params: MemberParams, response: memberResponse },
    access: manageTeam('takes a seat'),
    operation: operation(
      'tenant',
      'reactivateMember',
      'Reactivate a member: takes a seat, 403 LIMIT_EXCEEDED when none is left (OWNER or ADMIN)',
      [404],
    ),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const { authorization } = callerOf(request);
        try {
          const ref = { userId: request.params.userId };
          const member = await unaryCall(clients.identity, 'ReactivateMember', ref, { authorization });
          return ok({ member: memberJson(member) });
        } catch (error) {
          const refused = await seatLimitError(error, clients, authorization);
          if (refused) return sendHttpError(reply, refused);
          throw error;
        }
      },
  }),
] as const;
