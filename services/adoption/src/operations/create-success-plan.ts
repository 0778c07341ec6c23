import { adoptionErrors, createPlan, type CreatePlanRequest, type SuccessPlan } from '../domain/index.js';
import { readTenant, type Caller, type TenantReadDeps } from './read-tenant.js';
import type { PlansRepository } from './ports.js';

/** What the success-plan use cases need; app.ts builds it (store/ implements the plans). */
export interface SuccessPlanDeps extends TenantReadDeps {
  readonly plans: PlansRepository;
  readonly newId: () => string;
}

/** The ACTIVE plan of a chain (its last generation), or null. */
export function activePlanOf(chain: readonly SuccessPlan[]): SuccessPlan | null {
  return chain.at(-1) ?? null;
}

/**
 * A new success plan (the caller is a journey writer: the adapter checked). The domain decides
 * against the chain it read; the insert of generation 0 decides between concurrent creates.
 */
export async function createSuccessPlan(
  deps: SuccessPlanDeps,
  caller: Caller,
  request: CreatePlanRequest,
): Promise<SuccessPlan> {
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
  return planned.value;
}
