import { adoptionErrors, createPlan, type CreatePlanRequest, type SuccessPlan } from '../domain/index.js';
import type { AggregatesRepository, PlansRepository } from '../ports.js';
import { activePlanOf } from './active-plan.js';
import type { Caller } from './caller.js';
import { projectionFor, type ProjectionReadDeps } from './read-projection.js';

/** What the success-plan use cases need; app.ts builds it (store/ implements the plans). */
export interface SuccessPlanDeps extends ProjectionReadDeps {
  /** The store, for a renewal's answer (the state recomputed as of now). */
  readonly aggregates: AggregatesRepository;
  readonly plans: PlansRepository;
  readonly newId: () => string;
}

/**
 * A new success plan (the caller is a journey writer: the adapter checked). The domain decides
 * against the chain it read; the insert of generation 0 decides between concurrent creates.
 */
export async function createSuccessPlan(
  deps: SuccessPlanDeps,
  caller: Caller,
  request: CreatePlanRequest,
): Promise<SuccessPlan> {
  const tenantId = caller.claims.tenantId;
  // The milestones as projected: a plan names milestones, it does not depend on their instant.
  const [projection, chain] = await Promise.all([projectionFor(deps, tenantId), deps.plans.chain(tenantId)]);
  const planned = createPlan(
    { role: caller.claims.role, activePlan: activePlanOf(chain), state: projection.state },
    { title: request.title, targetDate: request.targetDate, objectives: request.objectives },
    deps.now(),
    deps.newId,
  );
  if (!planned.ok) throw planned.error;
  // The domain saw no plan, but a concurrent create may have stored one since: the insert of
  // generation 0 is what decides.
  if ((await deps.plans.create(tenantId, planned.value)) === 'conflict') {
    const active = activePlanOf(await deps.plans.chain(tenantId));
    throw adoptionErrors.create('PLAN_ALREADY_ACTIVE', {
      details: active ? { activePlanId: active.id } : {},
    });
  }
  return planned.value;
}
