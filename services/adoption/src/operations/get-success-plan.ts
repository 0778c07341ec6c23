import { evaluatePlan, type SuccessPlan } from '../domain/index.js';
import { activePlanOf } from './active-plan.js';
import type { Caller } from './caller.js';
import type { NextBestActionDeps } from './get-next-best-action.js';
import { projectionFor, type ProjectionAnswer } from './read-projection.js';

/**
 * GetSuccessPlan: the ACTIVE plan from the plans repository, its objectives' `met` evaluated
 * against the stored milestones (what they are now, never what was stored at creation).
 */
export async function getSuccessPlan(
  deps: NextBestActionDeps,
  caller: Caller,
): Promise<ProjectionAnswer<SuccessPlan | null>> {
  const tenantId = caller.claims.tenantId;
  const [projection, chain] = await Promise.all([projectionFor(deps, tenantId), deps.readPlans(tenantId)]);
  const plan = activePlanOf(chain);
  return {
    from: projection,
    inputs: [plan],
    view: () => (plan === null ? null : evaluatePlan(plan, projection.state)),
  };
}
