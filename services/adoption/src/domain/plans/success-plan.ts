import type { PlanStatus } from '@tap/contracts';
// The statuses of a plan are the contract's (@tap/contracts, adoption-vocabulary.ts).
export { PLAN_STATUSES } from '@tap/contracts';
export type { PlanStatus } from '@tap/contracts';

/** A goal of the plan, reached when all its milestones are done. */
export interface Objective {
  readonly label: string;
  readonly milestoneKeys: readonly string[];
  /** Computed from milestone statuses, never taken from the caller. */
  readonly met: boolean;
}

/** A success plan (the spec's Success plan). */
export interface SuccessPlan {
  readonly id: string;
  readonly title: string;
  readonly targetDate: string;
  readonly status: PlanStatus;
  readonly renewedFromId: string | null;
  readonly objectives: readonly Objective[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The body of POST /tenant/adoption/success-plan; `met` may be sent and is ignored. */
export interface CreatePlanRequest {
  readonly title: string;
  readonly targetDate: string;
  readonly objectives: readonly {
    readonly label: string;
    readonly milestoneKeys: readonly string[];
    readonly met?: boolean;
  }[];
}

/** The body of POST /tenant/adoption/success-plan/renew. */
export interface RenewPlanRequest {
  readonly fromPlanId: string;
  /** Optional: when omitted the new plan runs as long as its predecessor, counted from now. */
  readonly targetDate?: string;
}

/** Roles allowed to create and renew plans. */
export const PLAN_MANAGER_ROLES: readonly string[] = ['OWNER', 'ADMIN'];

/** True when the role may create or renew a success plan. */
export function mayManagePlans(role: string): boolean {
  return PLAN_MANAGER_ROLES.includes(role);
}
