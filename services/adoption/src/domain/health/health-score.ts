import type { ComponentScore } from './component-score.js';
import type { HealthComponentCode } from './health-model.js';
import { COMPONENT_WEIGHTS } from './health-model.js';

/** One component as the explanation shows it. */
export interface HealthComponentExplanation {
  readonly code: HealthComponentCode;
  readonly present: boolean;
  /** Integer 0 to 100, or null when absent. */
  readonly value: number | null;
  /** Nominal weight from the model. */
  readonly weight: number;
  /** Weight after absent components dropped out (sums to 1 over present ones). */
  readonly effectiveWeight: number;
  /** Points contributed to the score: value x effectiveWeight, one decimal. */
  readonly points: number;
  /** The facts that moved it most. */
  readonly eventIds: readonly string[];
  readonly reason: string;
}

/** The score and its breakdown. */
export interface HealthScore {
  readonly score: number;
  readonly components: readonly HealthComponentExplanation[];
}

const roundTo = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/**
 * Weighted mean of the present components, rounded to an integer. Absent components are
 * excluded and the weights renormalised (journey progress, engagement and network are always
 * present, so at least 75% of the nominal weight always backs the score).
 */
export function healthScore(components: readonly ComponentScore[]): HealthScore {
  const presentWeight = components
    .filter((c) => c.present)
    .reduce((sum, c) => sum + COMPONENT_WEIGHTS[c.code], 0);
  const exact = components
    .filter((c) => c.present)
    .reduce((sum, c) => sum + (COMPONENT_WEIGHTS[c.code] * c.value) / presentWeight, 0);
  return {
    score: Math.round(exact),
    components: components.map((c) => {
      const effectiveWeight = c.present ? COMPONENT_WEIGHTS[c.code] / presentWeight : 0;
      return {
        code: c.code,
        present: c.present,
        value: c.present ? c.value : null,
        weight: COMPONENT_WEIGHTS[c.code],
        effectiveWeight: roundTo(effectiveWeight, 4),
        points: roundTo(c.value * effectiveWeight, 1),
        eventIds: c.eventIds,
        reason: c.reason,
      };
    }),
  };
}
