import type { AdoptionExplanation } from '../domain/index.js';
import type { Caller } from './caller.js';
import { projectionFor, type ProjectionAnswer, type ProjectionReadDeps } from './read-projection.js';

/** GetHealthExplanation: why the health score, band and rung are what the projection says. */
export async function getHealthExplanation(
  deps: ProjectionReadDeps,
  caller: Caller,
): Promise<ProjectionAnswer<{ readonly companyId: string; readonly explanation: AdoptionExplanation }>> {
  const projection = await projectionFor(deps, caller.claims.tenantId);
  return {
    from: projection,
    inputs: [],
    view: () => ({ companyId: projection.state.companyId, explanation: projection.explanation }),
  };
}
