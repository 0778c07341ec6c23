import { CATALOGUE_VERSION } from '../catalogue/catalogue.js';
import { capabilitySet } from '../catalogue/capabilities.js';
import type { PathProfile } from '../catalogue/milestone-definition.js';
import type { FactLog, TimedCompletion } from '../facts/fact-log.js';
import { buildFactLog, mergeCompletions } from '../facts/fact-log.js';
import type { EventFact, ManualCompletion } from '../facts/facts.js';
import { dataFreshness } from '../health/data-freshness.js';
import { engagement } from '../health/engagement.js';
import { healthBand } from '../health/health-band.js';
import { HEALTH_MODEL_VERSION } from '../health/health-model.js';
import type { HealthComponentExplanation } from '../health/health-score.js';
import { healthScore } from '../health/health-score.js';
import { journeyProgress } from '../health/journey-progress.js';
import { network } from '../health/network.js';
import { networkEdges } from '../health/network-edges.js';
import { responsiveness } from '../health/responsiveness.js';
import { buildMilestones } from '../milestones/build-milestones.js';
import { evaluateProgress } from '../milestones/milestone-progress.js';
import type { MilestoneProgress } from '../milestones/milestone-progress.js';
import { detectSignalsInLog } from '../risk/detect-risk-signals.js';
import type { RiskSignal } from '../risk/risk-signal.js';
import { toIso } from '../time.js';
import type { AdoptionState, HealthBand, MaturityRung, UpgradeContexts } from './adoption-state.js';
import type { AdoptionExplanation } from './explanation.js';
import { summarise } from './explanation.js';
import { maturityRung } from './maturity-rung.js';

/** Everything the aggregate is computed from. */
export interface RecomputeInput {
  readonly companyId: string;
  readonly pathProfile: PathProfile;
  /** The applied events' facts, in any order, duplicates allowed (deduplicated by id). */
  readonly facts: readonly EventFact[];
  readonly manualCompletions: readonly ManualCompletion[];
  /** Capability keys the tier grants; unknown keys are ignored. */
  readonly capabilities: readonly string[];
  /** Upgrade contexts for paid teasers the tier lacks, keyed by capability; missing → null. */
  readonly upgradeContexts?: UpgradeContexts;
  /** The band of the stored state (hysteresis); null for a new tenant. */
  readonly previousBand: HealthBand | null;
  /** The stored version, echoed into the state; the store increments it when it writes. */
  readonly version: number;
  readonly now: Date;
}

/** The aggregate, its explanation, and the drift-watch signals found on the way. */
export interface RecomputeResult {
  readonly state: AdoptionState;
  readonly explanation: AdoptionExplanation;
  /** All signals, resolved ones included, most recently detected first. */
  readonly signals: readonly RiskSignal[];
}

function firstActivity(log: FactLog, completions: ReadonlyMap<string, TimedCompletion>): number | null {
  const instants = [...completions.values()].map((c) => c.at);
  const first = log.facts[0];
  if (first !== undefined) instants.push(first.at);
  return instants.length === 0 ? null : Math.min(...instants);
}

function scoreComponents(
  log: FactLog,
  progress: ReadonlyMap<string, MilestoneProgress>,
  input: RecomputeInput,
  rung: MaturityRung,
): { score: number; components: readonly HealthComponentExplanation[]; density: number } {
  const now = input.now.getTime();
  const edges = networkEdges(log, now);
  const { score, components } = healthScore([
    journeyProgress(progress, capabilitySet(input.capabilities)),
    engagement(log, rung, now),
    network(edges, rung),
    dataFreshness(log, now),
    responsiveness(log, now),
  ]);
  return { score, components, density: edges.active };
}

function explain(
  state: AdoptionState,
  components: readonly HealthComponentExplanation[],
  bandReason: string,
  rungReason: string,
): AdoptionExplanation {
  return {
    catalogueVersion: CATALOGUE_VERSION,
    healthModelVersion: HEALTH_MODEL_VERSION,
    asOf: state.lastRecomputedAt,
    healthScore: state.healthScore,
    healthBand: state.healthBand,
    bandReason,
    maturityRung: state.currentMaturityRung,
    rungReason,
    networkDensity: state.networkDensity,
    components,
    summary: summarise(state.healthScore, components, bandReason, rungReason),
  };
}

/**
 * The one recompute: a pure, deterministic function from the tenant's facts to its whole
 * aggregate. Same facts (in any order, with duplicates), same capabilities, previous band,
 * version and `now` → the same result, to the byte.
 */
export function recompute(input: RecomputeInput): RecomputeResult {
  const now = input.now.getTime();
  const log = buildFactLog(input.facts);
  const completions = mergeCompletions(input.manualCompletions, log);
  const progress = evaluateProgress(input.pathProfile, log, completions);
  const milestones = buildMilestones(progress, {
    capabilities: capabilitySet(input.capabilities),
    upgradeContexts: input.upgradeContexts ?? {},
  });
  const doneKeys = new Set([...progress.values()].filter((p) => p.done).map((p) => p.definition.key));
  const rung = maturityRung(doneKeys);
  const signals = detectSignalsInLog(input.companyId, log, now);
  const started = firstActivity(log, completions);
  const scored = started === null ? null : scoreComponents(log, progress, input, rung.rung);
  const score = scored?.score ?? null;
  const band = healthBand({
    score,
    previousBand: input.previousBand,
    rung: rung.rung,
    tenureMs: started === null ? 0 : Math.max(0, now - started),
    signals,
  });
  const components = scored?.components ?? [];
  const state: AdoptionState = {
    companyId: input.companyId,
    currentMaturityRung: rung.rung,
    pathProfile: input.pathProfile,
    healthScore: score,
    healthBand: band.band,
    networkDensity: scored?.density ?? 0,
    lastRecomputedAt: toIso(now),
    version: input.version,
    milestones,
  };
  return { state, explanation: explain(state, components, band.reason, rung.reason), signals };
}
