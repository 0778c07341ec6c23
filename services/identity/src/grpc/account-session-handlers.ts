import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { authenticate, requireUser } from '@tap/service-auth';
import { MANAGER_ROLES } from '../domain/roles.js';
import { endMemberSessions } from '../operations/end-member-sessions.js';
import { endOtherSessions } from '../operations/end-other-sessions.js';
import { endSession } from '../operations/end-session.js';
import { listSessions } from '../operations/list-sessions.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { signedInUser } from './invitation-handlers.js';

type AccountSessionRpcs = 'ListSessions' | 'EndSession' | 'EndOtherSessions' | 'EndMemberSessions';

/**
 * A user's own sessions (any role; never an OAuth client's token, which has none) and a
 * manager's "end every session of this member".
 */
export function accountSessionHandlers(
  deps: IdentityHandlerDeps,
): Pick<IdentityServiceHandlers, AccountSessionRpcs> {
  const { ctx, logger } = deps;
  const caller = async (metadata: Parameters<typeof authenticate>[0], roles?: readonly string[]) => {
    const claims = await authenticate(metadata, deps.verifier);
    requireUser(claims, roles);
    return signedInUser(claims);
  };
  return {
    ListSessions: unaryHandler('IdentityService/ListSessions', logger, async (_request, call) => {
      const sessions = await listSessions(ctx, await caller(call.metadata));
      return {
        sessions: sessions.map((session) => ({
          id: session.id,
          userAgent: session.userAgent,
          address: session.address,
          createdAt: session.createdAt.toISOString(),
          lastUsedAt: session.lastUsedAt?.toISOString() ?? '',
          current: session.current,
        })),
      };
    }),

    EndSession: unaryHandler('IdentityService/EndSession', logger, async (request, call) => {
      await endSession(ctx, await caller(call.metadata), request.id);
      return {};
    }),

    EndOtherSessions: unaryHandler('IdentityService/EndOtherSessions', logger, async (_request, call) => ({
      revoked: await endOtherSessions(ctx, await caller(call.metadata)),
    })),

    EndMemberSessions: unaryHandler('IdentityService/EndMemberSessions', logger, async (request, call) => ({
      revoked: await endMemberSessions(ctx, await caller(call.metadata, MANAGER_ROLES), request.userId),
    })),
  };
}
