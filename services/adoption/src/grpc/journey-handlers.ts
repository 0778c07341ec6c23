import type { AdoptionServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import {
  activeSignals,
  adoptionErrors,
  coverageCells,
  MAX_SIGNAL_LIMIT,
  nextBestAction,
} from '../domain/index.js';
import { callerTier, readTenant } from '../tenant-state.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { activePlanOf } from '../operations/create-success-plan.js';
import {
  coverageToWire,
  explanationToWire,
  nextBestActionToWire,
  riskSignalToWire,
} from './wire/journey-to-wire.js';

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

/** Next best action, coverage, risk signals and the health explanation. */
export function journeyHandlers(
  deps: AdoptionHandlerDeps,
): Pick<
  AdoptionServiceHandlers,
  'GetNextBestAction' | 'GetCoverage' | 'ListRiskSignals' | 'GetHealthExplanation'
> {
  return {
    GetNextBestAction: unaryHandler(
      'AdoptionService/GetNextBestAction',
      deps.logger,
      async (_request, ctx) => {
        const caller = await callerOf(ctx.metadata, deps.verifier);
        const [{ tier, result }, chain] = await Promise.all([
          readTenant(deps, caller, { upgradeContexts: true }),
          deps.readPlans(caller.claims.tenantId),
        ]);
        const view = nextBestAction(result.state, {
          capabilities: tier.tier.capabilities,
          activePlan: activePlanOf(chain),
        });
        return nextBestActionToWire(view);
      },
    ),

    GetCoverage: unaryHandler('AdoptionService/GetCoverage', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const loading = deps.readAggregate(caller.claims.tenantId);
      const { tier } = await callerTier(deps, caller, loading, { upgradeContexts: false });
      const aggregate = await loading;
      return coverageToWire(coverageCells({ facts: aggregate.facts, capabilities: tier.capabilities }));
    }),

    // The drift-watch ledger as recorded: a rung is shown once the watch has acted on it.
    ListRiskSignals: unaryHandler('AdoptionService/ListRiskSignals', deps.logger, async (request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const limit = signalLimit(request.limit);
      const aggregate = await deps.readAggregate(caller.claims.tenantId);
      return { signals: activeSignals(aggregate.signals, limit).map(riskSignalToWire) };
    }),

    GetHealthExplanation: unaryHandler(
      'AdoptionService/GetHealthExplanation',
      deps.logger,
      async (_request, ctx) => {
        const caller = await callerOf(ctx.metadata, deps.verifier);
        const { aggregate, result } = await readTenant(deps, caller, { upgradeContexts: false });
        return explanationToWire(aggregate.tenantId, result.explanation);
      },
    ),
  };
}
