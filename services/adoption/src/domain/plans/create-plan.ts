import { adoptionErrors } from '../errors.js';
import type { Result } from '../result.js';
import { fail, ok } from '../result.js';
import type { AdoptionState } from '../state/adoption-state.js';
import { toIso } from '../time.js';
import { evaluateObjectives } from './objectives.js';
import type { CreatePlanRequest, SuccessPlan } from './success-plan.js';
import { mayManagePlans } from './success-plan.js';
import { validatePlanRequest } from './validate-plan.js';

/** What creating a plan reads besides the request. */
export interface CreatePlanContext {
  /** Role of the authenticated user. */
  readonly role: string;
  /** The tenant's ACTIVE plan, or null. */
  readonly activePlan: SuccessPlan | null;
  /** The tenant's current adoption state (profile for validation, statuses for `met`). */
  readonly state: AdoptionState;
}

/**
 * A new ACTIVE plan. Checked in the order a caller can fix things: role (PERMISSION_DENIED),
 * then the request (INVALID_ARGUMENT), then the one-active-plan rule (PLAN_ALREADY_ACTIVE, 409).
 * The store must still enforce one ACTIVE plan per tenant when it writes (two racing creates).
 */
export function createPlan(
  context: CreatePlanContext,
  request: CreatePlanRequest,
  now: Date,
  newId: () => string,
): Result<SuccessPlan> {
  if (!mayManagePlans(context.role))
    return fail(adoptionErrors.create('ROLE_FORBIDDEN', { details: { role: context.role } }));
  const valid = validatePlanRequest(request, context.state.pathProfile, now);
  if (!valid.ok) return valid;
  if (context.activePlan !== null) {
    return fail(
      adoptionErrors.create('PLAN_ALREADY_ACTIVE', { details: { activePlanId: context.activePlan.id } }),
    );
  }
  const at = toIso(now.getTime());
  return ok({
    id: newId(),
    title: valid.value.title,
    targetDate: valid.value.targetDate,
    status: 'ACTIVE',
    renewedFromId: null,
    objectives: evaluateObjectives(valid.value.objectives, context.state),
    createdAt: at,
    updatedAt: at,
  });
}
