import type { HealthComponentExplanation } from '../health/health-score.js';
import { COMPONENT_LABELS } from '../health/health-model.js';
import type { HealthBand, MaturityRung } from './adoption-state.js';

/** Why the aggregate is what it is; stored or shown next to the state on every recompute. */
export interface AdoptionExplanation {
  readonly catalogueVersion: number;
  readonly healthModelVersion: number;
  readonly asOf: string;
  readonly healthScore: number | null;
  readonly healthBand: HealthBand;
  readonly bandReason: string;
  readonly maturityRung: MaturityRung;
  readonly rungReason: string;
  readonly networkDensity: number;
  /** Every component in model order; empty while there are no facts. */
  readonly components: readonly HealthComponentExplanation[];
  /** One paragraph a tenant can read. */
  readonly summary: string;
}

/** The plain-language paragraph: the score as a sum of component points, then band and rung. */
export function summarise(
  score: number | null,
  components: readonly HealthComponentExplanation[],
  bandReason: string,
  rungReason: string,
): string {
  if (score === null) return `No activity yet, so there is no health score. ${rungReason}`;
  const parts = components
    .filter((c) => c.present)
    .map(
      (c) =>
        `${COMPONENT_LABELS[c.code]} ${c.points} (${c.value ?? 0}/100 at ${Math.round(c.effectiveWeight * 100)}%)`,
    );
  const absent = components.filter((c) => !c.present).map((c) => COMPONENT_LABELS[c.code]);
  const left = absent.length === 0 ? '' : ` ${absent.join(' and ')} left out for lack of data.`;
  return `Health ${score} ≈ ${parts.join(' + ')}.${left} ${bandReason} ${rungReason}`;
}
