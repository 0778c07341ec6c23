import {
  adoptionErrors,
  createPlan,
  type CreatePlanRequest,
  type OutboundEvent,
  type SuccessPlan,
} from '../domain/index.js';
import { planHolder, type AggregatesRepository, type PlansRepository } from '../ports.js';
import { activePlanOf } from './active-plan.js';
import { callerAuditEvent, type Caller } from './caller.js';
import type { EventOutbox } from './event-outbox.js';
import { projectionFor, type ProjectionReadDeps } from './read-projection.js';

/** What the success-plan use cases need; app.ts builds it (store/ implements the plans). */
export interface SuccessPlanDeps extends ProjectionReadDeps {
  /** The store, for a renewal's answer (the state recomputed as of now). */
  readonly aggregates: AggregatesRepository;
  readonly plans: PlansRepository;
  readonly newId: () => string;
  /** The outbox of the audit entries of plan creates and renewals (none: stored, not relayed). */
  readonly events?: EventOutbox;
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
  // The milestones as projected: a plan names milestones, it does not depend on their instant.
  const [projection, chain] = await Promise.all([projectionFor(deps, tenantId), deps.plans.chain(tenantId)]);
  const planned = createPlan(
    { role: caller.claims.role, activePlan: activePlanOf(chain), state: projection.state },
    { title: request.title, targetDate: request.targetDate, objectives: request.objectives },
    deps.now(),
    deps.newId,
  );
  if (!planned.ok) throw planned.error;
  // The domain saw no plan, but a concurrent create may have stored one since: the insert of
  // generation 0 is what decides.
  const audit = planAudit(deps, caller, 'success_plan.created', planned.value);
  const holder = planHolder(0);
  await deps.events?.expect(tenantId, [audit], deps.now(), holder);
  if ((await deps.plans.create(tenantId, planned.value, [audit])) === 'conflict') {
    await deps.events?.abandon(tenantId, [audit]);
    const active = activePlanOf(await deps.plans.chain(tenantId));
    throw adoptionErrors.create('PLAN_ALREADY_ACTIVE', {
      details: active ? { activePlanId: active.id } : {},
    });
  }
  await deps.events?.publishOrLeave(tenantId, [audit], holder);
  return planned.value;
}

/** The audit entry of a plan's create or renewal, stored in the insert of its generation. */
export function planAudit(
  deps: Pick<SuccessPlanDeps, 'newId' | 'now'>,
  caller: Caller,
  action: 'success_plan.created' | 'success_plan.renewed',
  plan: SuccessPlan,
): OutboundEvent {
  return callerAuditEvent(caller, {
    id: deps.newId(),
    action,
    target: { type: 'success_plan', id: plan.id },
    at: deps.now(),
  });
}
