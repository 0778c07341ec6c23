import { monthlyPeriod, planCleanup, planExpiry, type Reservation } from '../domain/index.js';
import type { UsageOperationsDeps } from './deps.js';
import type { UsageRecord } from './ports/usage-repository.js';

/** Monthly counters kept: the current UTC month and the 12 before it (a year of history). */
export const MONTHLY_PERIODS_KEPT = 13;
/** Tenants read per page of a clean-up pass. */
export const DEFAULT_CLEANUP_BATCH = 100;
/** A pass stops after this many tenants; the next pass starts from the first tenant again. */
export const DEFAULT_MAX_TENANTS_PER_PASS = 10_000;

/** What one clean-up pass did. */
export interface CleanupReport {
  readonly tenants: number;
  readonly failed: number;
  readonly expired: number;
  readonly removedReservations: number;
  readonly prunedEvents: number;
  readonly prunedPeriods: number;
}

export interface CleanupSettings {
  readonly appliedEventRetentionMs: number;
  readonly batchSize?: number;
  readonly maxTenantsPerPass?: number;
  readonly onTenantError?: (tenantId: string, error: unknown) => void;
}

type TenantCleanup = Omit<CleanupReport, 'tenants' | 'failed'>;

/**
 * One pass over every tenant's usage document: expires HELD reservations past `expiresAt`
 * (giving their units back), removes finished reservations past retention, forgets applied
 * event ids older than the retention, and drops monthly counters older than a year. Every
 * write is conditional (the expiry applies only while the reservation is HELD) and every
 * removal is of something finished, so passes from several replicas may overlap.
 */
export async function runCleanupPass(
  deps: UsageOperationsDeps,
  settings: CleanupSettings,
): Promise<CleanupReport> {
  const batch = settings.batchSize ?? DEFAULT_CLEANUP_BATCH;
  const maxTenants = settings.maxTenantsPerPass ?? DEFAULT_MAX_TENANTS_PER_PASS;
  const total = {
    tenants: 0,
    failed: 0,
    expired: 0,
    removedReservations: 0,
    prunedEvents: 0,
    prunedPeriods: 0,
  };
  let after: string | null = null;
  while (total.tenants < maxTenants) {
    const ids = await deps.usage.listTenantIds(after, Math.min(batch, maxTenants - total.tenants));
    for (const tenantId of ids) {
      total.tenants += 1;
      try {
        const done = await cleanupTenant(deps, tenantId, settings.appliedEventRetentionMs);
        total.expired += done.expired;
        total.removedReservations += done.removedReservations;
        total.prunedEvents += done.prunedEvents;
        total.prunedPeriods += done.prunedPeriods;
      } catch (error) {
        // One tenant's failure (a busy lock, a lost connection) must not stop the others.
        total.failed += 1;
        settings.onTenantError?.(tenantId, error);
      }
    }
    if (ids.length < batch) break;
    after = ids[ids.length - 1] ?? null;
  }
  return total;
}

/** Cleans one tenant's document under its write lock. */
export async function cleanupTenant(
  deps: UsageOperationsDeps,
  tenantId: string,
  appliedEventRetentionMs: number,
): Promise<TenantCleanup> {
  return deps.lock.run(tenantId, async () => {
    const now = deps.now();
    const doc = await deps.usage.readForCleanup(tenantId);
    if (!doc) return { expired: 0, removedReservations: 0, prunedEvents: 0, prunedPeriods: 0 };
    const plan = planCleanup(Object.values(doc.reservations ?? {}), now);
    let expired = 0;
    for (const due of plan.expire) {
      // Re-read: an earlier expiry in this loop moved the counters the guards compare against.
      const view = await deps.usage.read(tenantId, { reservationKey: due.reservation.idempotencyKey });
      const transition = view.reservation ? planExpiry(view.reservation, now) : null;
      if (transition && (await deps.usage.settleReservation(tenantId, view, transition, now))) expired += 1;
    }
    const eventIds = expiredEventIds(doc, now.getTime() - appliedEventRetentionMs);
    const periods = droppablePeriods(doc, now);
    await deps.usage.prune(tenantId, { reservationKeys: plan.remove, eventIds, periods }, now);
    return {
      expired,
      removedReservations: plan.remove.length,
      prunedEvents: eventIds.length,
      prunedPeriods: periods.length,
    };
  });
}

function expiredEventIds(doc: UsageRecord, cutoffMs: number): string[] {
  return Object.entries(doc.appliedEvents ?? {})
    .filter(([, appliedAt]) => Date.parse(appliedAt) <= cutoffMs)
    .map(([eventId]) => eventId);
}

function droppablePeriods(doc: UsageRecord, now: Date): string[] {
  const oldestKept = monthlyPeriod(
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHLY_PERIODS_KEPT - 1), 1)),
  );
  const reservations: Reservation[] = Object.values(doc.reservations ?? {});
  // A month some reservation still names stays, whatever its age, so settling it finds its counter.
  const named = new Set(reservations.map((r) => r.period).filter((p): p is string => p !== null));
  return Object.keys(doc.months ?? {}).filter((period) => period < oldestKept && !named.has(period));
}
