import type { UsageRepository } from '../operations/ports/usage-repository.js';

/**
 * The usage repository with a hook after every write that changed a tenant's document (reserve,
 * settlement, expiry, prune), so read caches drop what is now older.
 */
export function notifyingUsage(usage: UsageRepository, changed: (tenantId: string) => void): UsageRepository {
  const after = (tenantId: string, wrote: boolean): boolean => {
    if (wrote) changed(tenantId);
    return wrote;
  };
  return {
    ...usage,
    reserve: async (tenantId, plan, now) => after(tenantId, await usage.reserve(tenantId, plan, now)),
    settleReservation: async (tenantId, view, transition, now) =>
      after(tenantId, await usage.settleReservation(tenantId, view, transition, now)),
    adjustSeats: async (tenantId, delta, maxUsedBefore, now) =>
      after(tenantId, await usage.adjustSeats(tenantId, delta, maxUsedBefore, now)),
    setSeatCount: async (tenantId, used, now) => {
      await usage.setSeatCount(tenantId, used, now);
      changed(tenantId);
    },
    // A clean-up pass looks at every tenant every minute and mostly finds nothing to prune: only a
    // prune that wrote is a change (each notice drops the tenant's views in every replica and
    // gateway, and sends it through the domain announcer).
    prune: async (tenantId, prune, now) => after(tenantId, await usage.prune(tenantId, prune, now)),
  };
}
