import type { AdoptionServiceHandlers } from '@tap/contracts';
import { answerMemo, unaryHandler } from '@tap/grpc-kit';
import { completeMilestoneFor } from '../operations/complete-milestone.js';
import { readTenant } from '../operations/read-tenant.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { stateToWire } from './wire/state-to-wire.js';
import type { AdoptionState } from '../domain/index.js';
import type { AdoptionState as WireState } from '@tap/contracts';
import { requireJourneyWriter } from './write-access.js';

/** GetState and CompleteMilestone. */
export function stateHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetState' | 'CompleteMilestone'> {
  // Reads that share a recompute share its wire answer and its encoding (grpc-kit answerMemo).
  const stateAnswers = answerMemo<AdoptionState, WireState>();
  return {
    GetState: unaryHandler('AdoptionService/GetState', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const { aggregate, result } = await readTenant(deps, caller, { upgradeContexts: true });
      return stateAnswers(result.state, [aggregate.appliedEvents], () =>
        stateToWire(result.state, aggregate.appliedEvents),
      );
    }),
    CompleteMilestone: unaryHandler(
      'AdoptionService/CompleteMilestone',
      deps.logger,
      async (request, ctx) => {
        const caller = await callerOf(ctx.metadata, deps.verifier);
        requireJourneyWriter(caller);
        const { state, appliedEvents } = await completeMilestoneFor(deps, caller, request);
        return stateToWire(state, appliedEvents);
      },
    ),
  };
}
