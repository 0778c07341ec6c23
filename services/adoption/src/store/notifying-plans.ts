import type { PlansRepository } from '../ports.js';

/** Told after a plan write won: the length of the tenant's plan chain it made (its version). */
export type PlansChanged = (tenantId: string, chainLength: number) => void;

/**
 * The plans repository with a hook after every write that won, so cached chains are never served
 * older than the write. A chain only grows (generation g + 1 is inserted once), so its length is
 * the version: a create makes 1, the renewal of generation g makes g + 2.
 */
export function notifyingPlans(plans: PlansRepository, changed: PlansChanged): PlansRepository {
  return {
    ...plans,
    create: async (tenantId, plan, events) => {
      const outcome = await plans.create(tenantId, plan, events);
      if (outcome === 'created') changed(tenantId, 1);
      return outcome;
    },
    renew: async (tenantId, predecessorGeneration, renewed, successor, events) => {
      const outcome = await plans.renew(tenantId, predecessorGeneration, renewed, successor, events);
      if (outcome === 'renewed') changed(tenantId, predecessorGeneration + 2);
      return outcome;
    },
  };
}
