import {
  entitlementErrors,
  planReservation,
  resolveUnmatchedReservation,
  type ReservationOutcome,
  type ReservationRequest,
} from '../domain/index.js';
import { MAX_WRITE_ATTEMPTS, tierOf, type UsageOperationsDeps } from './deps.js';
import { snapshotOf } from './usage-snapshot.js';

/**
 * Reserve: validate and plan (domain), try the one conditional update, and when it does not
 * apply read the tenant's counters and let the domain decide between replay, denial, conflict
 * and another attempt. Denials are answers and are not recorded.
 */
export async function reserve(
  deps: UsageOperationsDeps,
  tenantId: string,
  request: ReservationRequest,
): Promise<ReservationOutcome> {
  const now = deps.now();
  const tier = await tierOf(deps.tiers, tenantId, now);
  const plan = planReservation(tier, request, now);
  return deps.lock.run(tenantId, async () => {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      if (plan.kind === 'ATTEMPT' && (await deps.usage.reserve(tenantId, plan, now))) {
        return { granted: true, replayed: false, reservation: plan.reservation };
      }
      const view = await deps.usage.read(tenantId, { reservationKey: request.idempotencyKey });
      const resolution = resolveUnmatchedReservation(
        tier,
        snapshotOf(view.doc, now),
        request,
        view.reservation,
      );
      if (!('retry' in resolution)) return resolution;
    }
    throw entitlementErrors.create('RESERVATION_CONTENDED');
  });
}
