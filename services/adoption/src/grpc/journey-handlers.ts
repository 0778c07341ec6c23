import type { AdoptionServiceHandlers } from '@tap/contracts';
import { answerMemo, unaryHandler } from '@tap/grpc-kit';
import {
  activeSignals,
  adoptionErrors,
  coverageCells,
  MAX_SIGNAL_LIMIT,
  nextBestAction,
} from '../domain/index.js';
import { readTenant, tenantTier } from '../operations/read-tenant.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { activePlanOf } from '../operations/create-success-plan.js';
import type { AdoptionExplanation, AdoptionState } from '../domain/index.js';
import type {
  Coverage as WireCoverage,
  HealthExplanation as WireExplanation,
  NextBestActionView as WireNextBestAction,
  RiskSignalList as WireRiskSignalList,
} from '@tap/contracts';
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

/** The cached aggregate the read model hands out (its type is the store's; grpc/ names it through the deps). */
type TenantAggregate = Awaited<ReturnType<AdoptionHandlerDeps['readAggregate']>>;

/** Next best action, coverage, risk signals and the health explanation. */
export function journeyHandlers(
  deps: AdoptionHandlerDeps,
): Pick<
  AdoptionServiceHandlers,
  'GetNextBestAction' | 'GetCoverage' | 'ListRiskSignals' | 'GetHealthExplanation'
> {
  // Reads that share a recompute (or a cached aggregate) share the wire answer (grpc-kit answerMemo).
  const nextBestActions = answerMemo<AdoptionState, WireNextBestAction>();
  const coverages = answerMemo<TenantAggregate, WireCoverage>();
  const signalLists = answerMemo<TenantAggregate, WireRiskSignalList>();
  const explanations = answerMemo<AdoptionExplanation, WireExplanation>();
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
        const activePlan = activePlanOf(chain);
        return nextBestActions(result.state, [tier.tier, activePlan], () =>
          nextBestActionToWire(
            nextBestAction(result.state, { capabilities: tier.tier.capabilities, activePlan }),
          ),
        );
      },
    ),

    GetCoverage: unaryHandler('AdoptionService/GetCoverage', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const aggregate = await deps.readAggregate(caller.claims.tenantId);
      const { tier } = await tenantTier(deps, aggregate, { upgradeContexts: false });
      return coverages(aggregate, [tier], () =>
        coverageToWire(
          coverageCells({
            facts: aggregate.facts,
            items: aggregate.summary.items ?? {},
            capabilities: tier.capabilities,
          }),
        ),
      );
    }),

    // The drift-watch ledger as recorded: a rung is shown once the watch has acted on it.
    ListRiskSignals: unaryHandler('AdoptionService/ListRiskSignals', deps.logger, async (request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const limit = signalLimit(request.limit);
      const aggregate = await deps.readAggregate(caller.claims.tenantId);
      return signalLists(aggregate, [limit], () => ({
        signals: activeSignals(aggregate.signals, limit).map(riskSignalToWire),
      }));
    }),

    GetHealthExplanation: unaryHandler(
      'AdoptionService/GetHealthExplanation',
      deps.logger,
      async (_request, ctx) => {
        const caller = await callerOf(ctx.metadata, deps.verifier);
        const { aggregate, result } = await readTenant(deps, caller, { upgradeContexts: false });
        return explanations(result.explanation, [aggregate.tenantId], () =>
          explanationToWire(aggregate.tenantId, result.explanation),
        );
      },
    ),
  };
}
