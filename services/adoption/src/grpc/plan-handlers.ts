import type { AdoptionServiceHandlers } from '@tap/contracts';
import { answerMemo, unaryHandler } from '@tap/grpc-kit';
import { evaluatePlan } from '../domain/index.js';
import { activePlanOf, createSuccessPlan } from '../operations/create-success-plan.js';
import { renewSuccessPlan } from '../operations/renew-success-plan.js';
import { readTenant } from '../operations/read-tenant.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { planToWire } from './wire/plan-to-wire.js';
import type { AdoptionState } from '../domain/index.js';
import type { SuccessPlanView as WirePlanView } from '@tap/contracts';
import { stateToWire } from './wire/state-to-wire.js';
import { requireJourneyWriter } from './write-access.js';

/** GetSuccessPlan, CreateSuccessPlan and RenewSuccessPlan. */
export function planHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetSuccessPlan' | 'CreateSuccessPlan' | 'RenewSuccessPlan'> {
  // Reads that share a recompute and a cached chain share the wire answer (grpc-kit answerMemo).
  const planViews = answerMemo<AdoptionState, WirePlanView>();
  return {
    GetSuccessPlan: unaryHandler('AdoptionService/GetSuccessPlan', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const [{ result }, chain] = await Promise.all([
        readTenant(deps, caller, { upgradeContexts: false }),
        deps.readPlans(caller.claims.tenantId),
      ]);
      const plan = activePlanOf(chain);
      // `met` follows the milestones as they are now, never what was stored at creation.
      return planViews(result.state, [plan], () =>
        plan === null ? {} : { plan: planToWire(evaluatePlan(plan, result.state)) },
      );
    }),
    CreateSuccessPlan: unaryHandler(
      'AdoptionService/CreateSuccessPlan',
      deps.logger,
      async (request, ctx) => {
        const caller = await callerOf(ctx.metadata, deps.verifier);
        requireJourneyWriter(caller);
        return planToWire(await createSuccessPlan(deps, caller, request));
      },
    ),
    RenewSuccessPlan: unaryHandler('AdoptionService/RenewSuccessPlan', deps.logger, async (request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      requireJourneyWriter(caller);
      const { state, appliedEvents } = await renewSuccessPlan(deps, caller, request);
      return stateToWire(state, appliedEvents);
    }),
  };
}
