import { adoptionErrors } from '../errors.js';
import type { Result } from '../result.js';
import { fail, ok } from '../result.js';
import type { AdoptionState } from '../state/adoption-state.js';
import { DAY_MS, parseInstant, toIso } from '../time.js';
import { evaluateObjectives } from './objectives.js';
import type { RenewPlanRequest, SuccessPlan } from './success-plan.js';
import { mayManagePlans } from './success-plan.js';
import { validateTargetDate } from './validate-plan.js';

/** What renewing reads besides the request. */
export interface RenewPlanContext {
  readonly role: string;
  /** The tenant's plan with id `fromPlanId`, or null when the tenant has none by that id. */
  readonly predecessor: SuccessPlan | null;
  readonly state: AdoptionState;
}

/** Both documents a renewal writes. */
export interface PlanRenewal {
  /** The predecessor, now RENEWED. */
  readonly renewed: SuccessPlan;
  /** The new ACTIVE plan. */
  readonly successor: SuccessPlan;
}

/** Default target: as long as the predecessor ran (createdAt → targetDate), from now; at least a day. */
function defaultTargetDate(predecessor: SuccessPlan, now: Date): string {
  const created = parseInstant(predecessor.createdAt) ?? now.getTime();
  const target = parseInstant(predecessor.targetDate) ?? created;
  return toIso(now.getTime() + Math.max(DAY_MS, target - created));
}

/**
 * Renews the ACTIVE plan: it becomes RENEWED and a new ACTIVE plan carries every objective
 * forward (met or not, `met` recomputed) with the same title and `renewedFromId` set. Same
 * roles as create (OWNER, ADMIN). Errors: ROLE_FORBIDDEN, PLAN_NOT_FOUND (404),
 * INVALID_TARGET_DATE, PLAN_NOT_ACTIVE (409: it was already renewed).
 */
export function renewPlan(
  context: RenewPlanContext,
  request: RenewPlanRequest,
  now: Date,
  newId: () => string,
): Result<PlanRenewal> {
  if (!mayManagePlans(context.role))
    return fail(adoptionErrors.create('ROLE_FORBIDDEN', { details: { role: context.role } }));
  const { predecessor } = context;
  if (predecessor === null || predecessor.id !== request.fromPlanId) {
    return fail(adoptionErrors.create('PLAN_NOT_FOUND', { details: { planId: request.fromPlanId } }));
  }
  const targetDate =
    request.targetDate === undefined
      ? ok(defaultTargetDate(predecessor, now))
      : validateTargetDate(request.targetDate, now);
  if (!targetDate.ok) return targetDate;
  if (predecessor.status !== 'ACTIVE') {
    return fail(
      adoptionErrors.create('PLAN_NOT_ACTIVE', {
        details: { planId: predecessor.id, status: predecessor.status },
      }),
    );
  }
  const at = toIso(now.getTime());
  return ok({
    renewed: { ...predecessor, status: 'RENEWED', updatedAt: at },
    successor: {
      id: newId(),
      title: predecessor.title,
      targetDate: targetDate.value,
      status: 'ACTIVE',
      renewedFromId: predecessor.id,
      objectives: evaluateObjectives(predecessor.objectives, context.state),
      createdAt: at,
      updatedAt: at,
    },
  });
}
