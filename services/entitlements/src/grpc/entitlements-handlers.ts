import type { EntitlementsServiceHandlers, TierAssignment as WireTierAssignment } from '@tap/contracts';
import { unaryHandler, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import {
  CAPABILITY_KEYS,
  buildUpgradeContext,
  buildUsageReport,
  entitlementErrors,
  evaluateCan,
  getTier,
  isTierCode,
} from '../domain/index.js';
import type { UsageOperationsDeps } from '../operations/deps.js';
import { reserve } from '../operations/reserve.js';
import { consumeReservation, releaseReservation } from '../operations/settle-reservation.js';
import type { ReadModelCache } from '../operations/read-model-cache.js';
import { snapshotOf, type UsageDocument } from '../store/usage-document.js';
import type { TierAssignment } from '../store/tier-assignments-repository.js';
import {
  canDecisionToWire,
  rateUsageFromWire,
  reservationToWire,
  upgradeContextToWire,
  usageReportToWire,
} from './wire.js';

/** The cached per-tenant read model (see operations/read-model-cache.ts). */
export type EntitlementsReadModel = ReadModelCache<TierAssignment, UsageDocument | null>;

export interface EntitlementsHandlerDeps {
  readonly ops: UsageOperationsDeps;
  readonly reads: EntitlementsReadModel;
  /** Drops the tenant's cached view here and on every replica. */
  readonly tierChanged: (tenantId: string) => void;
  readonly verifier: TokenVerifier;
  readonly logger: HandlerLogger;
}

// Tenant ids are identity's UUIDs; the bound keeps a typo from creating a stray document.
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function toWire(assignment: TierAssignment): WireTierAssignment {
  const tier = getTier(assignment.tierCode);
  return {
    tenantId: assignment.tenantId,
    tierCode: tier.code,
    tierName: tier.name,
    pathProfile: tier.pathProfile,
    capabilities: CAPABILITY_KEYS.filter((key) => tier.capabilities[key]),
    updatedAt: assignment.updatedAt.toISOString(),
    apiRequestsPerMinute: tier.rateLimits.API_REQUESTS_MINUTE,
    apiRequestsPerDay: tier.rateLimits.API_REQUESTS_DAY,
  };
}

/**
 * entitlements.v1 handlers: authenticate (the tenant always comes from the verified token),
 * decode, apply the domain over the store, encode. Errors are the domain catalogue's DomainErrors;
 * unaryHandler maps their kind to a gRPC status with the code in `tap-error-code`.
 */
export function entitlementsHandlers(deps: EntitlementsHandlerDeps): EntitlementsServiceHandlers {
  const { logger, ops, reads } = deps;
  const tenantOf = async (metadata: Parameters<typeof authenticate>[0]) =>
    (await authenticate(metadata, deps.verifier)).tenantId;
  return {
    GetTier: unaryHandler('EntitlementsService/GetTier', logger, async (_request, ctx) => {
      return toWire((await reads.view(await tenantOf(ctx.metadata))).tier);
    }),

    SetTier: unaryHandler('EntitlementsService/SetTier', logger, async (request) => {
      // Only the operator's certificate reaches SetTier (RPC_ALLOWLIST): no shared secret here.
      if (!TENANT_ID.test(request.tenantId)) throw entitlementErrors.create('INVALID_TENANT_ID');
      if (!isTierCode(request.tierCode))
        throw entitlementErrors.create('UNKNOWN_TIER', { details: { tierCode: request.tierCode } });
      const assignment = await ops.tiers.setTier(request.tenantId, request.tierCode, ops.now());
      deps.tierChanged(request.tenantId);
      return toWire(assignment);
    }),

    GetUsage: unaryHandler('EntitlementsService/GetUsage', logger, async (request, ctx) => {
      const tenantId = await tenantOf(ctx.metadata);
      const now = ops.now();
      const view = await reads.view(tenantId);
      const tier = getTier(view.tier.tierCode);
      return usageReportToWire(
        buildUsageReport(tier, snapshotOf(view.usage, now), rateUsageFromWire(request), now),
      );
    }),

    Can: unaryHandler('EntitlementsService/Can', logger, async (request, ctx) => {
      const tenantId = await tenantOf(ctx.metadata);
      const now = ops.now();
      const view = await reads.view(tenantId);
      return canDecisionToWire(
        evaluateCan(
          getTier(view.tier.tierCode),
          snapshotOf(view.usage, now),
          request.action,
          request.resourceCount,
        ),
      );
    }),

    GetUpgradeContext: unaryHandler('EntitlementsService/GetUpgradeContext', logger, async (request, ctx) => {
      const tier = getTier((await reads.view(await tenantOf(ctx.metadata))).tier.tierCode);
      return upgradeContextToWire(buildUpgradeContext(tier, request.capability, request.frictionType));
    }),

    Reserve: unaryHandler('EntitlementsService/Reserve', logger, async (request, ctx) => {
      const outcome = await reserve(ops, await tenantOf(ctx.metadata), {
        action: request.action,
        units: request.units,
        idempotencyKey: request.idempotencyKey,
        ...(request.ttlMs === undefined ? {} : { ttlMs: request.ttlMs }),
      });
      if (!outcome.granted)
        return { granted: false, replayed: false, denial: canDecisionToWire(outcome.decision) };
      return {
        granted: true,
        replayed: outcome.replayed,
        reservation: reservationToWire(outcome.reservation),
      };
    }),

    Consume: unaryHandler('EntitlementsService/Consume', logger, async (request, ctx) => {
      const tenantId = await tenantOf(ctx.metadata);
      const result = await consumeReservation(ops, tenantId, request.idempotencyKey, request.units);
      return { changed: result.changed, reservation: reservationToWire(result.reservation) };
    }),

    Release: unaryHandler('EntitlementsService/Release', logger, async (request, ctx) => {
      const result = await releaseReservation(ops, await tenantOf(ctx.metadata), request.idempotencyKey);
      return { changed: result.changed, reservation: reservationToWire(result.reservation) };
    }),
  };
}
