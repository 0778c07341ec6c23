import type { CoverageCell } from '../domain/index.js';
import type { Caller } from './caller.js';
import { projectionFor, type ProjectionAnswer, type ProjectionReadDeps } from './read-projection.js';

/** GetCoverage: the coverage cells as the last recomputing write stored them. */
export async function getCoverage(
  deps: ProjectionReadDeps,
  caller: Caller,
): Promise<ProjectionAnswer<readonly CoverageCell[]>> {
  const projection = await projectionFor(deps, caller.claims.tenantId);
  return { from: projection, inputs: [], view: () => projection.coverage };
}
