import type { SuccessPlan as WirePlan } from '@tap/contracts';
import type { SuccessPlan } from '../../domain/index.js';

/** A success plan as the adoption.v1 message. */
export function planToWire(plan: SuccessPlan): WirePlan {
  return {
    id: plan.id,
    title: plan.title,
    targetDate: plan.targetDate,
    status: plan.status,
    ...(plan.renewedFromId === null ? {} : { renewedFromId: plan.renewedFromId }),
    objectives: plan.objectives.map((o) => ({
      label: o.label,
      milestoneKeys: [...o.milestoneKeys],
      met: o.met,
    })),
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
  };
}
