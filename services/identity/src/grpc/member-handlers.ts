import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler, type CallContext } from '@tap/grpc-kit';
import { authenticate, requireUser } from '@tap/service-auth';
import type { MemberActor } from '../domain/members.js';
import { MANAGER_ROLES, parseRole } from '../domain/roles.js';
import { changeMemberRole } from '../operations/change-member-role.js';
import { deactivateMember } from '../operations/deactivate-member.js';
import { listMembers } from '../operations/list-members.js';
import { reactivateMember } from '../operations/reactivate-member.js';
import { rejectJoinRequest } from '../operations/reject-join-request.js';
import { userActor } from '../operations/audit-actor.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { joinRequestToWire, memberToWire } from './wire.js';

type MemberRpcs =
  'ListMembers' | 'ChangeMemberRole' | 'DeactivateMember' | 'ReactivateMember' | 'RejectJoinRequest';

/**
 * Team management for a tenant's OWNER or ADMIN (the gateway's route table demands the same; this
 * is the service's own check). Tenant and actor come from the verified token, never the request.
 */
export function memberHandlers(deps: IdentityHandlerDeps): Pick<IdentityServiceHandlers, MemberRpcs> {
  const { ctx, logger } = deps;
  const manager = async (metadata: CallContext['metadata']) => {
    const claims = await authenticate(metadata, deps.verifier);
    requireUser(claims, MANAGER_ROLES);
    const actor: MemberActor = { userId: claims.subject, role: parseRole(claims.role) };
    return { tenantId: claims.tenantId, actor };
  };
  return {
    ListMembers: unaryHandler('IdentityService/ListMembers', logger, async (_request, call) => {
      const { tenantId } = await manager(call.metadata);
      return { members: (await listMembers(ctx, tenantId)).map(memberToWire) };
    }),

    ChangeMemberRole: unaryHandler('IdentityService/ChangeMemberRole', logger, async (request, call) => {
      const { tenantId, actor } = await manager(call.metadata);
      return memberToWire(await changeMemberRole(ctx, tenantId, actor, request.userId, request.role));
    }),

    DeactivateMember: unaryHandler('IdentityService/DeactivateMember', logger, async (request, call) => {
      const { tenantId, actor } = await manager(call.metadata);
      return memberToWire(await deactivateMember(ctx, tenantId, actor, request.userId));
    }),

    ReactivateMember: unaryHandler('IdentityService/ReactivateMember', logger, async (request, call) => {
      const { tenantId, actor } = await manager(call.metadata);
      return memberToWire(await reactivateMember(ctx, tenantId, actor, request.userId));
    }),

    RejectJoinRequest: unaryHandler('IdentityService/RejectJoinRequest', logger, async (request, call) => {
      const { tenantId, actor } = await manager(call.metadata);
      return joinRequestToWire(
        await rejectJoinRequest(ctx, tenantId, request.id, await userActor(ctx, tenantId, actor.userId)),
      );
    }),
  };
}
