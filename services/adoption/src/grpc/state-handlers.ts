import type { AdoptionServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { completeMilestoneFor } from '../operations/complete-milestone.js';
import { readTenant } from '../tenant-state.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { stateToWire } from './wire/state-to-wire.js';
import { requireJourneyWriter } from './write-access.js';

/** GetState and CompleteMilestone. */
export function stateHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetState' | 'CompleteMilestone'> {
  return {
    GetState: unaryHandler('AdoptionService/GetState', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const { aggregate, result } = await readTenant(deps, caller, { upgradeContexts: true });
      return stateToWire(result.state, aggregate.appliedEvents);
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
