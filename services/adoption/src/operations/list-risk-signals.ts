import { activeSignals, adoptionErrors, MAX_SIGNAL_LIMIT, type RiskSignal } from '../domain/index.js';
import type { Caller } from './caller.js';
import { projectionFor, type ProjectionAnswer, type ProjectionReadDeps } from './read-projection.js';

/**
 * The limit as asked, or undefined for the default. Validated here as well as at the gateway:
 * a service trusts no caller's input.
 */
function signalLimit(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNAL_LIMIT) {
    throw adoptionErrors.create('INVALID_SIGNAL_LIMIT', {
      details: { limit, minimum: 1, maximum: MAX_SIGNAL_LIMIT },
    });
  }
  return limit;
}

/**
 * ListRiskSignals: the drift-watch ledger's active signals as the last recomputing write stored
 * them (a rung is shown once a writer, usually the drift watch, has recorded it).
 */
export async function listRiskSignals(
  deps: ProjectionReadDeps,
  caller: Caller,
  request: { readonly limit?: number },
): Promise<ProjectionAnswer<readonly RiskSignal[]>> {
  const limit = signalLimit(request.limit);
  const projection = await projectionFor(deps, caller.claims.tenantId);
  return { from: projection, inputs: [limit], view: () => activeSignals(projection.signals, limit) };
}
