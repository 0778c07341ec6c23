import type { AdoptionState } from '../state/adoption-state.js';
import type { Objective, SuccessPlan } from './success-plan.js';

/**
 * An objective is met when every milestone it names is DONE or NOT_APPLICABLE (a profile change
 * must not strand a plan on a milestone the tenant can no longer reach). A key the catalogue no
 * longer has keeps the objective unmet, so nothing is claimed that was not seen.
 */
export function isObjectiveMet(milestoneKeys: readonly string[], state: AdoptionState): boolean {
  const statuses = new Map(state.milestones.map((m) => [m.key, m.status]));
  return milestoneKeys.every((key) => {
    const status = statuses.get(key);
    return status === 'DONE' || status === 'NOT_APPLICABLE';
  });
}

/** The objectives with `met` recomputed from the state. */
export function evaluateObjectives(
  objectives: readonly Pick<Objective, 'label' | 'milestoneKeys'>[],
  state: AdoptionState,
): readonly Objective[] {
  return objectives.map((o) => ({
    label: o.label,
    milestoneKeys: o.milestoneKeys,
    met: isObjectiveMet(o.milestoneKeys, state),
  }));
}

/** The plan as it should be shown now: `met` recomputed from the current state. */
export function evaluatePlan(plan: SuccessPlan, state: AdoptionState): SuccessPlan {
  return { ...plan, objectives: evaluateObjectives(plan.objectives, state) };
}
