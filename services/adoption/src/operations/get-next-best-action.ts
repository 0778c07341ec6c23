import { nextBestAction, type NextBestActionView, type SuccessPlan } from '../domain/index.js';
import { activePlanOf } from './active-plan.js';
import type { Caller } from './caller.js';
import { projectionFor, type ProjectionAnswer, type ProjectionReadDeps } from './read-projection.js';

/** What GetNextBestAction needs besides the projections: the plan chains (an objective ranks higher). */
export interface NextBestActionDeps extends ProjectionReadDeps {
  readonly readPlans: (tenantId: string) => Promise<readonly SuccessPlan[]>;
}

/**
 * GetNextBestAction: ranked over the stored milestones and the tier's capabilities the projection
 * holds (28 milestones, no facts), with the active plan's unmet objectives.
 */
export async function getNextBestAction(
  deps: NextBestActionDeps,
  caller: Caller,
): Promise<ProjectionAnswer<NextBestActionView>> {
  const tenantId = caller.claims.tenantId;
  const [projection, chain] = await Promise.all([projectionFor(deps, tenantId), deps.readPlans(tenantId)]);
  const activePlan = activePlanOf(chain);
  return {
    from: projection,
    inputs: [activePlan],
    view: () => nextBestAction(projection.state, { capabilities: projection.capabilities, activePlan }),
  };
}
