import type { CapabilityKey } from '../catalogue/capabilities.js';
import { capabilitySet } from '../catalogue/capabilities.js';
import { isObjectiveMet } from '../plans/objectives.js';
import type { SuccessPlan } from '../plans/success-plan.js';
import type { AdoptionState, MaturityRung, Milestone, UpgradeContext } from '../state/adoption-state.js';
import { rungIndex } from '../state/adoption-state.js';
import { gateOf, nextRung } from '../state/maturity-rung.js';
import { becauseOf } from './because-of.js';
import type { MilestoneGraph } from './unlocks.js';
import { downstream, isEntitled, milestoneGraph, unlockedNow, withPrerequisites } from './unlocks.js';

/** Points per ranking term (see docs/adoption-model.md, "Next best action"). */
export const NBA_WEIGHTS = {
  unlocksNow: 10,
  downstream: 2,
  inProgress: 4,
  planObjective: 5,
  nextRung: 3,
} as const;

/** A milestone proposed as the next step. */
export interface NextBestActionMilestone extends Milestone {
  /** Locked milestones it frees the moment it is done (direct, not transitive). */
  readonly unlocks: number;
  readonly becauseOf: string;
}

/** The next-best-action response. */
export interface NextBestActionView {
  readonly companyId: string;
  readonly currentMaturityRung: MaturityRung;
  /** Null when nothing the tier allows is left to do. */
  readonly nextBestAction: NextBestActionMilestone | null;
  /** AVAILABLE and IN_PROGRESS milestones, paid teasers included, in display order. */
  readonly available: readonly Milestone[];
  /** LOCKED milestones in display order. */
  readonly locked: readonly Milestone[];
  readonly nextUpgradePrompt: UpgradeContext | null;
}

/** What ranking reads besides the state. */
export interface NextBestActionOptions {
  readonly capabilities: readonly string[];
  readonly activePlan?: SuccessPlan | null;
}

interface Ranked {
  readonly milestone: Milestone;
  readonly rank: number;
  readonly now: readonly Milestone[];
  readonly total: number;
  readonly towardRung: MaturityRung | null;
  readonly objective: string | null;
}

const isActionable = (m: Milestone): boolean => m.status === 'AVAILABLE' || m.status === 'IN_PROGRESS';

function objectiveFor(
  key: string,
  plan: SuccessPlan | null | undefined,
  state: AdoptionState,
): string | null {
  if (plan === null || plan === undefined || plan.status !== 'ACTIVE') return null;
  const objective = plan.objectives.find(
    (o) => o.milestoneKeys.includes(key) && !isObjectiveMet(o.milestoneKeys, state),
  );
  return objective?.label ?? null;
}

function rankAll(
  state: AdoptionState,
  graph: MilestoneGraph,
  caps: ReadonlySet<CapabilityKey>,
  plan?: SuccessPlan | null,
): Ranked[] {
  const upcoming = nextRung(state.currentMaturityRung);
  const rungPath = upcoming === null ? new Set<string>() : withPrerequisites(gateOf(upcoming), graph, caps);
  const ranked = state.milestones
    .filter((m) => isActionable(m) && isEntitled(m, caps))
    .map((milestone): Ranked => {
      const now = unlockedNow(milestone.key, graph, caps);
      const total = downstream(milestone.key, graph, caps).size;
      const towardRung = rungPath.has(milestone.key) ? upcoming : null;
      const objective = objectiveFor(milestone.key, plan, state);
      const rank =
        NBA_WEIGHTS.unlocksNow * now.length +
        NBA_WEIGHTS.downstream * total +
        (milestone.status === 'IN_PROGRESS' ? NBA_WEIGHTS.inProgress : 0) +
        (objective === null ? 0 : NBA_WEIGHTS.planObjective) +
        (towardRung === null ? 0 : NBA_WEIGHTS.nextRung);
      return { milestone, rank, now, total, towardRung, objective };
    });
  // Ties: earlier chapter, then display order, then key; all total, so the order is unique.
  return ranked.sort(
    (a, b) =>
      b.rank - a.rank ||
      a.milestone.chapter - b.milestone.chapter ||
      a.milestone.displayOrder - b.milestone.displayOrder ||
      (a.milestone.key < b.milestone.key ? -1 : 1),
  );
}

function toAction(best: Ranked): NextBestActionMilestone {
  const reason = becauseOf({
    milestone: best.milestone,
    unlockedNow: best.now,
    downstreamCount: best.total,
    towardRung: best.towardRung,
    objectiveLabel: best.objective,
  });
  return { ...best.milestone, unlocks: best.now.length, becauseOf: reason };
}

/**
 * Value before the ask: the upgrade prompt appears once the tenant exchanges data (rung
 * EXCHANGING or above), or earlier when nothing in its tier is left to do. It is the upgrade
 * context of the first paid teaser, in display order, that the tenant could start if entitled.
 */
function upgradePrompt(
  state: AdoptionState,
  caps: ReadonlySet<CapabilityKey>,
  hasCandidates: boolean,
): UpgradeContext | null {
  if (hasCandidates && rungIndex(state.currentMaturityRung) < rungIndex('EXCHANGING')) return null;
  const teaser = state.milestones.find(
    (m) => isActionable(m) && !isEntitled(m, caps) && m.upgradeContext !== null,
  );
  return teaser?.upgradeContext ?? null;
}

/**
 * The next best action: among AVAILABLE and IN_PROGRESS milestones the tier allows, the one
 * with the highest rank = 10 × steps it frees now + 2 × open steps downstream + 4 if started
 * + 5 if it serves an unmet objective of the active plan + 3 if it leads to the next rung.
 */
export function nextBestAction(state: AdoptionState, options: NextBestActionOptions): NextBestActionView {
  const caps = capabilitySet(options.capabilities);
  const graph = milestoneGraph(state.milestones);
  const ranked = rankAll(state, graph, caps, options.activePlan);
  const best = ranked[0];
  return {
    companyId: state.companyId,
    currentMaturityRung: state.currentMaturityRung,
    nextBestAction: best === undefined ? null : toAction(best),
    available: state.milestones.filter(isActionable),
    locked: state.milestones.filter((m) => m.status === 'LOCKED'),
    nextUpgradePrompt: upgradePrompt(state, caps, ranked.length > 0),
  };
}
