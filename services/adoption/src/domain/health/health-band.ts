import type { RiskSignal } from '../risk/risk-signal.js';
import type { HealthBand, MaturityRung } from '../state/adoption-state.js';
import { BAND_THRESHOLDS, ONBOARDING_MAX_MS, ONBOARDING_MIN_MS } from './health-model.js';

/** What the band rule reads. */
export interface BandInput {
  readonly score: number | null;
  /** The band committed by the previous recompute, for hysteresis; null for a new tenant. */
  readonly previousBand: HealthBand | null;
  readonly rung: MaturityRung;
  /** Time since the tenant's first fact. */
  readonly tenureMs: number;
  readonly signals: readonly RiskSignal[];
}

/** The band and a sentence saying why. */
export interface BandDecision {
  readonly band: HealthBand;
  readonly reason: string;
}

const { healthyEnter, healthyExit, atRiskEnter, atRiskExit } = BAND_THRESHOLDS;

/**
 * Threshold bands with hysteresis: a band is entered at one score and left at another, so a
 * score that wobbles around a line keeps its band. Worsening into AT_RISK is as quick as the
 * score; climbing out needs a clear margin.
 */
function byScore(score: number, previous: HealthBand | null): BandDecision {
  if (previous === 'HEALTHY' && score >= healthyExit) {
    return { band: 'HEALTHY', reason: `Score ${score} holds HEALTHY (it is left below ${healthyExit}).` };
  }
  if (previous === 'AT_RISK' && score < atRiskExit) {
    return { band: 'AT_RISK', reason: `Score ${score} keeps AT_RISK (it is left at ${atRiskExit} or more).` };
  }
  if (score >= healthyEnter)
    return { band: 'HEALTHY', reason: `Score ${score} is at least ${healthyEnter}.` };
  if (score < atRiskEnter) return { band: 'AT_RISK', reason: `Score ${score} is below ${atRiskEnter}.` };
  return { band: 'DRIFTING', reason: `Score ${score} is between the AT_RISK and HEALTHY thresholds.` };
}

/** The band after the caps that do not depend on the score's thresholds. */
function capped(decision: BandDecision, input: BandInput & { score: number }): BandDecision {
  if (decision.band !== 'HEALTHY') return decision;
  if (input.rung === 'ONBOARDED') {
    return { band: 'DRIFTING', reason: `Score ${input.score}, but no partner connection after onboarding.` };
  }
  const escalated = input.signals.find((s) => s.resolution === 'ESCALATED');
  if (escalated !== undefined) {
    return {
      band: 'DRIFTING',
      reason: `Score ${input.score}, but risk signal ${escalated.kind} has been escalated.`,
    };
  }
  return decision;
}

/**
 * The health band. In order: no facts yet → ONBOARDING; a CRITICAL escalated risk signal
 * forces AT_RISK; the onboarding window (30 days, up to 45 while still ONBOARDED) →
 * ONBOARDING; else score thresholds with hysteresis, capped at DRIFTING while any other
 * signal is escalated or while a tenant past onboarding is still ONBOARDED. Risk caps the
 * band; it never costs points as well.
 */
export function healthBand(input: BandInput): BandDecision {
  const { score } = input;
  if (score === null) return { band: 'ONBOARDING', reason: 'No activity yet.' };
  const critical = input.signals.find((s) => s.resolution === 'ESCALATED' && s.severity === 'CRITICAL');
  if (critical !== undefined) {
    return {
      band: 'AT_RISK',
      reason: `Risk signal ${critical.kind} has been escalated at CRITICAL severity.`,
    };
  }
  const onboardingWindow = input.rung === 'ONBOARDED' ? ONBOARDING_MAX_MS : ONBOARDING_MIN_MS;
  if (input.tenureMs < onboardingWindow) {
    return { band: 'ONBOARDING', reason: 'The tenant is still in its onboarding window.' };
  }
  return capped(byScore(score, input.previousBand), { ...input, score });
}
