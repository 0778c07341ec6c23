import type { AdoptionServiceHandlers } from '@tap/contracts';
import { answerMemo, unaryHandler } from '@tap/grpc-kit';
import { completeMilestoneFor } from '../operations/complete-milestone.js';
import { getState } from '../operations/get-state.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { stateToWire } from './wire/state-to-wire.js';
import type { TenantProjection } from '../domain/index.js';
import type { AdoptionState as WireState } from '@tap/contracts';
import { journeyWriteHandler } from './write-access.js';

/** GetState and CompleteMilestone. */
export function stateHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetState' | 'CompleteMilestone'> {
  // Reads of the same stored projection share its wire answer and encoding (grpc-kit answerMemo).
  const stateAnswers = answerMemo<TenantProjection, WireState>();
  return {
    GetState: unaryHandler('AdoptionService/GetState', deps.logger, async (_request, ctx) => {
      const answer = await getState(deps, await callerOf(ctx.metadata, deps.verifier));
      return stateAnswers(answer.from, answer.inputs, () => {
        const { state, appliedEvents } = answer.view();
        return stateToWire(state, appliedEvents);
      });
    }),
    CompleteMilestone: journeyWriteHandler(
      'AdoptionService/CompleteMilestone',
      deps,
      async (request, caller) => {
        const { state, appliedEvents } = await completeMilestoneFor(deps, caller, request);
        return stateToWire(state, appliedEvents);
      },
    ),
  };
}
