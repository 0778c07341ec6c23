import type { Collection, Db } from 'mongodb';
import type { OutboundEvent, SuccessPlan } from '../domain/index.js';
import { packEvents } from './pending-events.js';
import type { PlansRepository } from '../ports.js';
import { isDuplicateKey } from './write-helpers.js';

export type { PlansRepository } from '../ports.js';

/** The collection of success plans, one document per plan generation of a tenant. */
export const PLANS_COLLECTION = 'success_plans';
/** Plans read back per tenant at most (a renewal a month is 83 years of history). */
export const MAX_PLAN_GENERATIONS = 1_000;
// Generations fetched per round trip while walking a tenant's chain. Each is one FerretDB lookup,
// and most chains hold one plan: two cost one round trip and one wasted lookup, four cost three.
const READ_AHEAD = 2;

/**
 * A plan as stored: `_id` is `<tenantId>:<generation>`. The first plan is generation 0, the
 * renewal of generation g is g + 1. Stored `status` is what the writer knew; the truth is the
 * position: the last generation is ACTIVE, every earlier one RENEWED.
 */
export interface PlanDocument {
  _id: string;
  tenantId: string;
  generation: number;
  plan: SuccessPlan;
  /**
   * The outbox of the audit entry of this generation's create or renewal (JSON strings, see
   * pending-events.ts), inserted with the plan and pulled once the relay published it.
   */
  pendingEvents?: string[];
}

/** `_id` of a plan generation's document. */
export const planId = (tenantId: string, generation: number): string => `${tenantId}:${generation}`;

/**
 * Success plans as an insert-only chain of generations. An insert with a unique `_id` is the
 * one write FerretDB v1 and MongoDB both apply atomically under concurrency, so claiming a
 * generation is what makes "at most one ACTIVE plan per tenant" hold across replicas: of ten
 * racing creates only one inserts generation 0, and of two racing renewals of generation g only
 * one inserts g + 1. Reads walk the chain by `_id`, the lookup FerretDB answers without a scan.
 */
export function plansRepository(db: Db): PlansRepository {
  const plans: Collection<PlanDocument> = db.collection(PLANS_COLLECTION);

  const insert = async (
    tenantId: string,
    generation: number,
    plan: SuccessPlan,
    events: readonly OutboundEvent[] = [],
  ): Promise<boolean> => {
    try {
      await plans.insertOne({
        _id: planId(tenantId, generation),
        tenantId,
        generation,
        plan,
        ...(events.length > 0 ? { pendingEvents: packEvents(events) } : {}),
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  };

  return {
    async chain(tenantId) {
      const found: SuccessPlan[] = [];
      while (found.length < MAX_PLAN_GENERATIONS) {
        const ids = Array.from({ length: READ_AHEAD }, (_, i) => planId(tenantId, found.length + i));
        const docs = await Promise.all(ids.map((id) => plans.findOne({ _id: id })));
        for (const doc of docs) {
          if (doc === null) return withStatuses(found);
          found.push(doc.plan);
        }
      }
      return withStatuses(found);
    },
    async create(tenantId, plan, events) {
      return (await insert(tenantId, 0, plan, events)) ? 'created' : 'conflict';
    },
    async renew(tenantId, predecessorGeneration, renewed, successor, events) {
      if (!(await insert(tenantId, predecessorGeneration + 1, successor, events))) return 'conflict';
      // Only the winner gets here, so this document has one writer. If it is lost, reads still
      // show RENEWED from the chain (withStatuses).
      await plans.updateOne({ _id: planId(tenantId, predecessorGeneration) }, { $set: { plan: renewed } });
      return 'renewed';
    },
  };
}

/** Statuses from the chain: the last plan is ACTIVE, every earlier one RENEWED. */
function withStatuses(chain: readonly SuccessPlan[]): SuccessPlan[] {
  return chain.map((plan, i) => {
    if (i === chain.length - 1) return plan.status === 'ACTIVE' ? plan : { ...plan, status: 'ACTIVE' };
    if (plan.status === 'RENEWED') return plan;
    const successor = chain[i + 1];
    return { ...plan, status: 'RENEWED', updatedAt: successor?.createdAt ?? plan.updatedAt };
  });
}
