import type { AggregatesRepository } from './aggregates-repository.js';
import type { DriftRepository } from './drift-repository.js';

/** Told after every write that changed a tenant's aggregate: the version it made, when known. */
export type AggregateChanged = (tenantId: string, version?: number) => void;

/**
 * The aggregates repository with a hook after every write that won (events applied, a manual
 * completion, a remembered tier), so read caches drop what is now older. A versioned write
 * names the version it made; the others only drop.
 */
export function notifyingAggregates(
  aggregates: AggregatesRepository,
  changed: AggregateChanged,
): AggregatesRepository {
  return {
    ...aggregates,
    applyFacts: async (tenantId, change, expectedVersion, derived, now) => {
      const wrote = await aggregates.applyFacts(tenantId, change, expectedVersion, derived, now);
      if (wrote) changed(tenantId, expectedVersion + 1);
      return wrote;
    },
    recordCompletion: async (tenantId, completion, expectedVersion, derived, now) => {
      const wrote = await aggregates.recordCompletion(tenantId, completion, expectedVersion, derived, now);
      if (wrote) changed(tenantId, expectedVersion + 1);
      return wrote;
    },
    recordCompletionOnce: async (tenantId, completion, now, events) => {
      const outcome = await aggregates.recordCompletionOnce(tenantId, completion, now, events);
      if (outcome === 'recorded') changed(tenantId);
      return outcome;
    },
  };
}

/** The drift repository with the same hook: a recorded drift pass changes the signals a read shows. */
export function notifyingDrift(drift: DriftRepository, changed: AggregateChanged): DriftRepository {
  return {
    ...drift,
    record: async (tenantId, read, derived, now) => {
      const wrote = await drift.record(tenantId, read, derived, now);
      if (wrote) changed(tenantId);
      return wrote;
    },
  };
}
