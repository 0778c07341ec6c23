import type { AdoptionServiceHandlers } from '@tap/contracts';
import { answerMemo, unaryHandler } from '@tap/grpc-kit';
import type { TenantProjection } from '../domain/index.js';
import { createSuccessPlan } from '../operations/create-success-plan.js';
import { getSuccessPlan } from '../operations/get-success-plan.js';
import { renewSuccessPlan } from '../operations/renew-success-plan.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { planToWire } from './wire/plan-to-wire.js';
import type { SuccessPlanView as WirePlanView } from '@tap/contracts';
import { stateToWire } from './wire/state-to-wire.js';
import { journeyWriteHandler } from './write-access.js';

/** GetSuccessPlan, CreateSuccessPlan and RenewSuccessPlan. */
export function planHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetSuccessPlan' | 'CreateSuccessPlan' | 'RenewSuccessPlan'> {
  // Reads of the same stored projection and cached chain share the wire answer (grpc-kit answerMemo).
  const planViews = answerMemo<TenantProjection, WirePlanView>();
  return {
    GetSuccessPlan: unaryHandler('AdoptionService/GetSuccessPlan', deps.logger, async (_request, ctx) => {
      const answer = await getSuccessPlan(deps, await callerOf(ctx.metadata, deps.verifier));
      return planViews(answer.from, answer.inputs, () => {
        const plan = answer.view();
        return plan === null ? {} : { plan: planToWire(plan) };
      });
    }),
    CreateSuccessPlan: journeyWriteHandler(
      'AdoptionService/CreateSuccessPlan',
      deps,
      async (request, caller) => planToWire(await createSuccessPlan(deps, caller, request)),
    ),
    RenewSuccessPlan: journeyWriteHandler(
      'AdoptionService/RenewSuccessPlan',
      deps,
      async (request, caller) => {
        const { state, appliedEvents } = await renewSuccessPlan(deps, caller, request);
        return stateToWire(state, appliedEvents);
      },
    ),
  };
}
