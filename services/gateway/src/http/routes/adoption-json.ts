import type {
  AdoptionState__Output,
  HealthExplanation__Output,
  Milestone__Output,
  NextBestActionView__Output,
  RiskSignal__Output,
  SuccessPlan__Output,
} from '@tap/contracts';
import { upgradeContextFromWire } from '@tap/contracts';
import { wireJson, type WireJson } from '../wire-json.js';

/**
 * Adoption's resources from their wire messages (http/wire-json.ts): the message itself, its
 * unset optional fields null and its upgrade contexts in the spec's shape. Coverage cells and
 * plan objectives are their messages as they are.
 */

type MilestoneJson = Omit<
  WireJson<Milestone__Output, 'requiredCapability' | 'completedAt'>,
  'upgradeContext'
> & {
  readonly upgradeContext: ReturnType<typeof upgradeContextFromWire> | null;
};

/** The spec's Milestone resource. */
export function milestoneJson(m: Milestone__Output): MilestoneJson {
  const json = wireJson(m, ['requiredCapability', 'completedAt']);
  return { ...json, upgradeContext: m.upgradeContext ? upgradeContextFromWire(m.upgradeContext) : null };
}

/** The spec's Adoption state resource. */
export const adoptionStateJson = (s: AdoptionState__Output) => ({
  ...wireJson(s, ['healthScore']),
  milestones: s.milestones.map(milestoneJson),
});

/** The next-best-action response: the ranked milestone carries `unlocks` and `becauseOf`. */
export function nextBestActionJson(v: NextBestActionView__Output) {
  const best = v.nextBestAction;
  const ranked: (MilestoneJson & { readonly unlocks: number; readonly becauseOf: string }) | null =
    best?.milestone
      ? { ...milestoneJson(best.milestone), unlocks: best.unlocks, becauseOf: best.becauseOf }
      : null;
  return {
    companyId: v.companyId,
    currentMaturityRung: v.currentMaturityRung,
    nextBestAction: ranked,
    available: v.available.map(milestoneJson),
    locked: v.locked.map(milestoneJson),
    nextUpgradePrompt: v.nextUpgradePrompt ? upgradeContextFromWire(v.nextUpgradePrompt) : null,
  };
}

/** The spec's Risk signal. */
export const riskSignalJson = (s: RiskSignal__Output) => wireJson(s, ['resolvedAt']);

/** The spec's Success plan. */
export const successPlanJson = (p: SuccessPlan__Output) => wireJson(p, ['renewedFromId']);

/** Our health explanation (not in the spec; docs/adoption-model.md, "Endpoints"). */
export const healthExplanationJson = (e: HealthExplanation__Output) => ({
  ...wireJson(e, ['healthScore']),
  components: e.components.map((c) => wireJson(c, ['value'])),
});
