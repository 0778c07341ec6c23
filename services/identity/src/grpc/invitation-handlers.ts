import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { authenticate, requireUser } from '@tap/service-auth';
import type { AccessClaims } from '@tap/tokens';
import { invitationStatus, type Invitation } from '../domain/invitation.js';
import { MANAGER_ROLES } from '../domain/roles.js';
import { acceptInvitation } from '../operations/accept-invitation.js';
import { createInvitation } from '../operations/create-invitation.js';
import { inspectInvitation } from '../operations/inspect-invitation.js';
import { listInvitations } from '../operations/list-invitations.js';
import { revokeInvitation } from '../operations/revoke-invitation.js';
import type { SignedInUser } from '../operations/signed-in-user.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { sessionClientOf, signedInToWire } from './session-wire.js';

type InvitationRpcs =
  'CreateInvitation' | 'ListInvitations' | 'RevokeInvitation' | 'InspectInvitation' | 'AcceptInvitation';

/** The signed-in user a verified user token stands for. */
export const signedInUser = (claims: AccessClaims): SignedInUser => ({
  userId: claims.subject,
  tenantId: claims.tenantId,
  role: claims.role,
  sessionId: claims.sessionId,
});

const invitationToWire = (invitation: Invitation, now: Date) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: invitationStatus(invitation, now),
  invitedById: invitation.invitedBy.id,
  invitedByEmail: invitation.invitedBy.email,
  createdAt: invitation.createdAt.toISOString(),
  expiresAt: invitation.expiresAt.toISOString(),
});

/**
 * Invitations: managing them takes an OWNER's or ADMIN's user token (checked here again, after
 * the gateway's route table); inspecting and accepting take the single-use token instead.
 */
export function invitationHandlers(deps: IdentityHandlerDeps): Pick<IdentityServiceHandlers, InvitationRpcs> {
  const { ctx, logger } = deps;
  const manager = async (metadata: Parameters<typeof authenticate>[0]) => {
    const claims = await authenticate(metadata, deps.verifier);
    requireUser(claims, MANAGER_ROLES);
    return signedInUser(claims);
  };
  return {
    CreateInvitation: unaryHandler('IdentityService/CreateInvitation', logger, async (request, call) => {
      const caller = await manager(call.metadata);
      const created = await createInvitation(ctx, deps.invitationMail, caller, {
        email: request.email,
        role: request.role,
      });
      return invitationToWire(created, ctx.now());
    }),

    ListInvitations: unaryHandler('IdentityService/ListInvitations', logger, async (_request, call) => {
      const caller = await manager(call.metadata);
      const now = ctx.now();
      return {
        invitations: (await listInvitations(ctx, caller.tenantId)).map((i) => invitationToWire(i, now)),
      };
    }),

    RevokeInvitation: unaryHandler('IdentityService/RevokeInvitation', logger, async (request, call) => {
      await revokeInvitation(ctx, await manager(call.metadata), request.id);
      return {};
    }),

    InspectInvitation: unaryHandler('IdentityService/InspectInvitation', logger, async (request) => {
      const preview = await inspectInvitation(ctx, request.token);
      return {
        email: preview.email,
        role: preview.role,
        tenantName: preview.tenantName,
        expiresAt: preview.expiresAt.toISOString(),
        existingAccount: preview.existingAccount,
      };
    }),

    AcceptInvitation: unaryHandler('IdentityService/AcceptInvitation', logger, async (request) => {
      const session = await acceptInvitation(ctx, {
        token: request.token,
        firstName: request.firstName,
        lastName: request.lastName,
        password: request.password,
        confirmLink: request.confirmLink,
        client: sessionClientOf(request.client),
      });
      return { outcome: 'SIGNED_IN', tenantProvisioned: false, session: signedInToWire(session) };
    }),
  };
}
