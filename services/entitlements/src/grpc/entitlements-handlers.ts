import type { EntitlementsServiceHandlers } from '@tap/contracts';
import type {
  CanDecision as WireCanDecision,
  TierAssignment as WireTierAssignment,
  UpgradeContext as WireUpgradeContext,
  UsageReport as WireUsageReport,
} from '@tap/contracts';
import { answerMemo, unaryHandler, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import { canDecisionOf } from '../operations/check-can.js';
import type { UsageOperationsDeps } from '../operations/deps.js';
import { getTierAssignment } from '../operations/get-tier-assignment.js';
import { upgradeContextOf } from '../operations/get-upgrade-context.js';
import type { TierAssignment } from '../operations/ports/tier-assignments-repository.js';
import { usageReportOf } from '../operations/get-usage-report.js';
import { answerMinute, readTenantView, type EntitlementsView } from '../operations/tenant-view.js';
import type { EntitlementsReadModel } from '../operations/ports/read-model.js';
import { getUsageHistory } from '../operations/get-usage-history.js';
import type { UsageHistoryRepository } from '../operations/ports/usage-history-repository.js';
import { reserve } from '../operations/reserve.js';
import { setTier } from '../operations/set-tier.js';
import type { SeatsRepository } from '../operations/ports/seats-repository.js';
import { releaseSeat, syncSeats, takeSeat, type SeatOutcome } from '../operations/seat-ledger.js';
import { entitlementErrors, parseTimestamp } from '../domain/index.js';
import { consumeReservation, releaseReservation } from '../operations/settle-reservation.js';
import {
  canDecisionToWire,
  rateUsageFromWire,
  reservationToWire,
  tierAssignmentToWire,
  upgradeContextToWire,
  usageReportToWire,
} from './wire.js';
import { usageHistoryToWire } from './usage-history-wire.js';

export interface EntitlementsHandlerDeps {
  readonly ops: UsageOperationsDeps;
  readonly reads: EntitlementsReadModel;
  /** The stored usage history (GetUsageHistory). */
  readonly history: UsageHistoryRepository;
  /** Drops the tenant's cached view here and on every replica. */
  readonly tierChanged: (tenantId: string) => Promise<void>;
  readonly verifier: TokenVerifier;
  readonly logger: HandlerLogger;
  readonly seats: SeatsRepository;
}

/** The only principal the seat ledger serves: identity, with a service token it minted for the tenant. */
export const SEAT_LEDGER_SERVICE = 'identity';

/**
 * entitlements.v1 handlers: authenticate (the tenant always comes from the verified token),
 * decode, call one operation, encode. Errors are the domain catalogue's DomainErrors;
 * unaryHandler maps their kind to a gRPC status with the code in `tap-error-code`.
 */
export function entitlementsHandlers(deps: EntitlementsHandlerDeps): EntitlementsServiceHandlers {
  const { logger, ops } = deps;
  const readDeps = { reads: deps.reads };
  const tenantOf = async (metadata: Parameters<typeof authenticate>[0]) =>
    (await authenticate(metadata, deps.verifier)).tenantId;
  // Reads of the same cached tier assignment (the read model makes a new one on every change)
  // share one frozen wire answer, encoded once by the server (grpc-kit answerMemo).
  const tierAnswers = answerMemo<TierAssignment, WireTierAssignment>();
  const upgradeContextAnswers = answerMemo<TierAssignment, WireUpgradeContext>();
  // The same for the usage report and `can` per cached view, inputs and minute (answerMinute).
  // The allowlist admits only identity's certificate; the token must be identity's service token
  // too, so the tenant comes from a token identity signed, never from the request (zero trust).
  const seatTenantOf = async (metadata: Parameters<typeof authenticate>[0]) => {
    const claims = await authenticate(metadata, deps.verifier);
    if (claims.kind !== 'service' || claims.subject !== SEAT_LEDGER_SERVICE)
      throw entitlementErrors.create('SEAT_CALLER_FORBIDDEN');
    return claims.tenantId;
  };
  const seatDeps = { ...ops, seats: deps.seats };
  const seatToWire = (outcome: SeatOutcome) => ({
    granted: outcome.granted,
    changed: outcome.changed,
    seatsHeld: outcome.seatsHeld,
    ...(outcome.denial ? { denial: canDecisionToWire(outcome.denial) } : {}),
  });
  const usageAnswers = answerMemo<EntitlementsView, WireUsageReport>();
  const canAnswers = answerMemo<EntitlementsView, WireCanDecision>();
  return {
    GetTier: unaryHandler('EntitlementsService/GetTier', logger, async (_request, ctx) => {
      const assignment = await getTierAssignment(deps, await tenantOf(ctx.metadata));
      return tierAnswers(assignment, [], () => tierAssignmentToWire(assignment));
    }),

    SetTier: unaryHandler('EntitlementsService/SetTier', logger, async (request) => {
      // Only the operator's certificate reaches SetTier (RPC_ALLOWLIST): no shared secret here.
      const assignment = await setTier({ ...ops, tierChanged: deps.tierChanged }, request);
      return tierAssignmentToWire(assignment);
    }),

    GetUsage: unaryHandler('EntitlementsService/GetUsage', logger, async (request, ctx) => {
      const tenantId = await tenantOf(ctx.metadata);
      const rateUsage = rateUsageFromWire(request);
      const view = await readTenantView(readDeps, tenantId);
      const now = ops.now();
      const inputs = [rateUsage.API_REQUESTS_DAY, rateUsage.API_REQUESTS_MINUTE, answerMinute(now)];
      return usageAnswers(view, inputs, () => usageReportToWire(usageReportOf(view, rateUsage, now)));
    }),

    Can: unaryHandler('EntitlementsService/Can', logger, async (request, ctx) => {
      const view = await readTenantView(readDeps, await tenantOf(ctx.metadata));
      const now = ops.now();
      const inputs = [request.action, request.resourceCount, answerMinute(now)];
      return canAnswers(view, inputs, () => canDecisionToWire(canDecisionOf(view, request, now)));
    }),

    GetUpgradeContext: unaryHandler('EntitlementsService/GetUpgradeContext', logger, async (request, ctx) => {
      const assignment = await getTierAssignment(deps, await tenantOf(ctx.metadata));
      return upgradeContextAnswers(assignment, [request.capability, request.frictionType], () =>
        upgradeContextToWire(upgradeContextOf(assignment, request)),
      );
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

    GetUsageHistory: unaryHandler('EntitlementsService/GetUsageHistory', logger, async (request, ctx) => {
      const tenantId = await tenantOf(ctx.metadata);
      const rateUsage = rateUsageFromWire({
        ...(request.apiRequestsDay === undefined ? {} : { apiRequestsDay: request.apiRequestsDay }),
      });
      const { key, from, to, granularity } = request;
      const historyDeps = { reads: deps.reads, history: deps.history, now: ops.now };
      const history = await getUsageHistory(historyDeps, tenantId, { key, from, to, granularity }, rateUsage);
      return usageHistoryToWire(history);
    }),

    Release: unaryHandler('EntitlementsService/Release', logger, async (request, ctx) => {
      const result = await releaseReservation(ops, await tenantOf(ctx.metadata), request.idempotencyKey);
      return { changed: result.changed, reservation: reservationToWire(result.reservation) };
    }),

    TakeSeat: unaryHandler('EntitlementsService/TakeSeat', logger, async (request, ctx) =>
      seatToWire(await takeSeat(seatDeps, await seatTenantOf(ctx.metadata), request.userId)),
    ),

    ReleaseSeat: unaryHandler('EntitlementsService/ReleaseSeat', logger, async (request, ctx) =>
      seatToWire(await releaseSeat(seatDeps, await seatTenantOf(ctx.metadata), request.userId)),
    ),

    SyncSeats: unaryHandler('EntitlementsService/SyncSeats', logger, async (request, ctx) => {
      const tenantId = await seatTenantOf(ctx.metadata);
      const listedAt =
        request.listedAt === undefined ? undefined : parseTimestamp(request.listedAt, 'listedAt');
      const outcome = await syncSeats(seatDeps, tenantId, request.userIds, listedAt);
      return { seatsHeld: outcome.seatsHeld, added: outcome.added, removed: outcome.removed };
    }),
  };
}
