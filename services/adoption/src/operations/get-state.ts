import type { TenantProjection } from '../domain/index.js';
import type { Caller } from './caller.js';
import { projectionFor, type ProjectionAnswer, type ProjectionReadDeps } from './read-projection.js';

/**
 * GetState: the tenant's state (milestones, rung, health) and applied-event count as the last
 * recomputing write stored them; `lastRecomputedAt` is that write's time.
 */
export async function getState(
  deps: ProjectionReadDeps,
  caller: Caller,
): Promise<ProjectionAnswer<TenantProjection>> {
  const projection = await projectionFor(deps, caller.claims.tenantId);
  return { from: projection, inputs: [], view: () => projection };
}
