import type { EntitlementsServiceHandlers, TierAssignment as WireTierAssignment } from '@tap/contracts';
import { unaryHandler, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate, requireOperator } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import { CAPABILITY_KEYS, entitlementErrors, getTier, isTierCode } from '../domain/index.js';
import type { TierAssignment, TierAssignmentsRepository } from '../store/tier-assignments-repository.js';

export interface EntitlementsHandlerDeps {
  readonly assignments: TierAssignmentsRepository;
  readonly verifier: TokenVerifier;
  readonly operatorToken: string;
  readonly logger: HandlerLogger;
  readonly now: () => Date;
}

function toWire(assignment: TierAssignment): WireTierAssignment {
  const tier = getTier(assignment.tierCode);
  return {
    tenantId: assignment.tenantId,
    tierCode: tier.code,
    tierName: tier.name,
    pathProfile: tier.pathProfile,
    capabilities: CAPABILITY_KEYS.filter((key) => tier.capabilities[key]),
    updatedAt: assignment.updatedAt.toISOString(),
  };
}

/** entitlements.v1 handlers. */
export function entitlementsHandlers(deps: EntitlementsHandlerDeps): EntitlementsServiceHandlers {
  const { logger } = deps;
  return {
    GetTier: unaryHandler('EntitlementsService/GetTier', logger, async (_request, ctx) => {
      const claims = await authenticate(ctx.metadata, deps.verifier);
      return toWire(await deps.assignments.findOrCreate(claims.tenantId, deps.now()));
    }),

    SetTier: unaryHandler('EntitlementsService/SetTier', logger, async (request, ctx) => {
      requireOperator(ctx.metadata, deps.operatorToken);
      if (!isTierCode(request.tierCode)) throw entitlementErrors.create('UNKNOWN_TIER', { details: { tierCode: request.tierCode } });
      return toWire(await deps.assignments.setTier(request.tenantId, request.tierCode, deps.now()));
    }),
  };
}
