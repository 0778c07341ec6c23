import type { AdoptionServiceHandlers } from '@tap/contracts';
import { answerMemo, unaryHandler } from '@tap/grpc-kit';
import type { TenantProjection } from '../domain/index.js';
import { getCoverage } from '../operations/get-coverage.js';
import { getHealthExplanation } from '../operations/get-health-explanation.js';
import { getNextBestAction } from '../operations/get-next-best-action.js';
import { listRiskSignals } from '../operations/list-risk-signals.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
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

/** Next best action, coverage, risk signals and the health explanation. */
export function journeyHandlers(
  deps: AdoptionHandlerDeps,
): Pick<
  AdoptionServiceHandlers,
  'GetNextBestAction' | 'GetCoverage' | 'ListRiskSignals' | 'GetHealthExplanation'
> {
  // Reads of the same stored projection share the wire answer (grpc-kit answerMemo).
  const nextBestActions = answerMemo<TenantProjection, WireNextBestAction>();
  const coverages = answerMemo<TenantProjection, WireCoverage>();
  const signalLists = answerMemo<TenantProjection, WireRiskSignalList>();
  const explanations = answerMemo<TenantProjection, WireExplanation>();
  return {
    GetNextBestAction: unaryHandler(
      'AdoptionService/GetNextBestAction',
      deps.logger,
      async (_request, ctx) => {
        const answer = await getNextBestAction(deps, await callerOf(ctx.metadata, deps.verifier));
        return nextBestActions(answer.from, answer.inputs, () => nextBestActionToWire(answer.view()));
      },
    ),

    GetCoverage: unaryHandler('AdoptionService/GetCoverage', deps.logger, async (_request, ctx) => {
      const answer = await getCoverage(deps, await callerOf(ctx.metadata, deps.verifier));
      return coverages(answer.from, answer.inputs, () => coverageToWire(answer.view()));
    }),

    ListRiskSignals: unaryHandler('AdoptionService/ListRiskSignals', deps.logger, async (request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const answer = await listRiskSignals(deps, caller, request);
      return signalLists(answer.from, answer.inputs, () => ({
        signals: answer.view().map(riskSignalToWire),
      }));
    }),

    GetHealthExplanation: unaryHandler(
      'AdoptionService/GetHealthExplanation',
      deps.logger,
      async (_request, ctx) => {
        const answer = await getHealthExplanation(deps, await callerOf(ctx.metadata, deps.verifier));
        return explanations(answer.from, answer.inputs, () => {
          const { companyId, explanation } = answer.view();
          return explanationToWire(companyId, explanation);
        });
      },
    ),
  };
}
