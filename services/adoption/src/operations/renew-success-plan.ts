import { adoptionErrors, renewPlan, type AdoptionState } from '../domain/index.js';
import type { Caller } from './caller.js';
import { planAudit, type SuccessPlanDeps } from './create-success-plan.js';
import { planHolder } from '../ports.js';
import { recomputeForWrite, tenantTier } from './tenant-tier.js';

/**
 * The renewal of the ACTIVE plan (the caller is a journey writer: the adapter checked): the
 * store's conditional insert of the next generation decides between concurrent renewals.
 */
export async function renewSuccessPlan(
  deps: SuccessPlanDeps,
  caller: Caller,
  request: { readonly fromPlanId: string; readonly targetDate?: string },
): Promise<{ readonly state: AdoptionState; readonly appliedEvents: number }> {
  const tenantId = caller.claims.tenantId;
  const [aggregate, chain] = await Promise.all([deps.aggregates.load(tenantId), deps.plans.chain(tenantId)]);
  const tier = await tenantTier(deps.tiers, aggregate.tier);
  const now = deps.now();
  const { state } = recomputeForWrite(aggregate, tier, now);
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
  const audit = planAudit(deps, caller, 'success_plan.renewed', successor);
  const holder = planHolder(generation + 1);
  await deps.events?.expect(tenantId, [audit], now, holder);
  if ((await deps.plans.renew(tenantId, generation, renewed, successor, [audit])) === 'conflict') {
    await deps.events?.abandon(tenantId, [audit]);
    // A concurrent renewal of the same plan won: this one is the double submit.
    throw adoptionErrors.create('PLAN_NOT_ACTIVE', {
      details: { planId: request.fromPlanId, status: 'RENEWED' },
    });
  }
  await deps.events?.publishOrLeave(tenantId, [audit], holder);
  // A renewal changes nothing the state is computed from, so the version stays; the state is
  // recomputed as of now, as the spec asks.
  return { state, appliedEvents: aggregate.appliedEvents };
}
