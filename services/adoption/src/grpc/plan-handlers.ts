import type {
  AdoptionServiceHandlers,
  CreateSuccessPlanRequest__Output,
  RenewSuccessPlanRequest__Output,
} from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { adoptionErrors, createPlan, evaluatePlan, renewPlan, type SuccessPlan } from '../domain/index.js';
import { callerTier, readTenant, recomputeForRead, type Caller } from '../tenant-state.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';
import { planToWire } from './wire/plan-to-wire.js';
import { stateToWire } from './wire/state-to-wire.js';
import { requireJourneyWriter } from './write-access.js';

/** The ACTIVE plan of a chain (its last generation), or null. */
export function activePlanOf(chain: readonly SuccessPlan[]): SuccessPlan | null {
  return chain.at(-1) ?? null;
}

async function create(deps: AdoptionHandlerDeps, caller: Caller, request: CreateSuccessPlanRequest__Output) {
  requireJourneyWriter(caller);
  const tenantId = caller.claims.tenantId;
  const [{ result }, chain] = await Promise.all([
    readTenant(deps, caller, { upgradeContexts: false }),
    deps.plans.chain(tenantId),
  ]);
  const planned = createPlan(
    { role: caller.claims.role, activePlan: activePlanOf(chain), state: result.state },
    { title: request.title, targetDate: request.targetDate, objectives: request.objectives },
    deps.now(),
    deps.newId,
  );
  if (!planned.ok) throw planned.error;
  // The domain saw no plan, but a concurrent create may have stored one since: the insert of
  // generation 0 is what decides.
  if ((await deps.plans.create(tenantId, planned.value)) === 'conflict') {
    const active = activePlanOf(await deps.plans.chain(tenantId));
    throw adoptionErrors.create('PLAN_ALREADY_ACTIVE', {
      details: active ? { activePlanId: active.id } : {},
    });
  }
  return planToWire(planned.value);
}

async function renew(deps: AdoptionHandlerDeps, caller: Caller, request: RenewSuccessPlanRequest__Output) {
  requireJourneyWriter(caller);
  const tenantId = caller.claims.tenantId;
  const loading = deps.aggregates.load(tenantId);
  const [tier, chain] = await Promise.all([
    callerTier(deps, caller, loading, { upgradeContexts: true }),
    deps.plans.chain(tenantId),
  ]);
  const aggregate = await loading;
  const now = deps.now();
  const { state } = recomputeForRead(aggregate, tier, now);
  const generation = chain.findIndex((p) => p.id === request.fromPlanId);
  const renewal = renewPlan(
    { role: caller.claims.role, predecessor: chain[generation] ?? null, state },
    {
      fromPlanId: request.fromPlanId,
      ...(request.targetDate === undefined ? {} : { targetDate: request.targetDate }),
    },
    now,
    deps.newId,
  );
  if (!renewal.ok) throw renewal.error;
  const { renewed, successor } = renewal.value;
  if ((await deps.plans.renew(tenantId, generation, renewed, successor)) === 'conflict') {
    // A concurrent renewal of the same plan won: this one is the double submit.
    throw adoptionErrors.create('PLAN_NOT_ACTIVE', {
      details: { planId: request.fromPlanId, status: 'RENEWED' },
    });
  }
  // A renewal changes nothing the state is computed from, so the version stays; the state is
  // recomputed as of now, as the spec asks.
  return stateToWire(state, aggregate.appliedEvents);
}

/** GetSuccessPlan, CreateSuccessPlan and RenewSuccessPlan. */
export function planHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetSuccessPlan' | 'CreateSuccessPlan' | 'RenewSuccessPlan'> {
  return {
    GetSuccessPlan: unaryHandler('AdoptionService/GetSuccessPlan', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const [{ result }, chain] = await Promise.all([
        readTenant(deps, caller, { upgradeContexts: false }),
        deps.plans.chain(caller.claims.tenantId),
      ]);
      const plan = activePlanOf(chain);
      // `met` follows the milestones as they are now, never what was stored at creation.
      return plan === null ? {} : { plan: planToWire(evaluatePlan(plan, result.state)) };
    }),
    CreateSuccessPlan: unaryHandler('AdoptionService/CreateSuccessPlan', deps.logger, async (request, ctx) =>
      create(deps, await callerOf(ctx.metadata, deps.verifier), request),
    ),
    RenewSuccessPlan: unaryHandler('AdoptionService/RenewSuccessPlan', deps.logger, async (request, ctx) =>
      renew(deps, await callerOf(ctx.metadata, deps.verifier), request),
    ),
  };
}
