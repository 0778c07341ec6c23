import type { FactLog } from '../facts/fact-log.js';
import type { MaturityRung } from '../state/adoption-state.js';
import { decayWeight, DAY_MS } from '../time.js';
import type { ComponentScore, Contribution } from './component-score.js';
import { formatPoints, toPercent, topEventIds } from './component-score.js';
import {
  ENGAGEMENT_DAILY_CAP,
  ENGAGEMENT_HALF_LIFE_MS,
  ENGAGEMENT_HORIZON_MS,
  ENGAGEMENT_TARGETS,
  ENGAGEMENT_VALUES,
} from './health-model.js';

/** The decayed value of each fact that counts toward engagement, oldest first. */
export function engagementContributions(log: FactLog, now: number): readonly Contribution[] {
  const perKindPerDay = new Map<string, number>();
  const contributions: Contribution[] = [];
  for (const fact of log.facts) {
    const value = ENGAGEMENT_VALUES[fact.type];
    const age = now - fact.at;
    if (value === 0 || age > ENGAGEMENT_HORIZON_MS) continue;
    const bucket = `${fact.type}@${Math.floor(fact.at / DAY_MS)}`;
    const seen = perKindPerDay.get(bucket) ?? 0;
    perKindPerDay.set(bucket, seen + 1);
    if (seen >= ENGAGEMENT_DAILY_CAP) continue;
    contributions.push({ id: fact.id, weight: value * decayWeight(age, ENGAGEMENT_HALF_LIFE_MS) });
  }
  return contributions;
}

/**
 * Recency-weighted activity against a target that grows with the rung. A fact is worth its
 * kind's value, halved every 14 days; the sum over the target, capped at 1, is the score.
 */
export function engagement(log: FactLog, rung: MaturityRung, now: number): ComponentScore {
  const contributions = engagementContributions(log, now);
  const points = contributions.reduce((sum, c) => sum + c.weight, 0);
  const target = ENGAGEMENT_TARGETS[rung];
  return {
    code: 'ENGAGEMENT',
    present: true,
    value: toPercent(points / target),
    eventIds: topEventIds(contributions),
    reason: `Recent activity is worth ${formatPoints(points)} of the ${target} points expected at ${rung} (value halves every 14 days).`,
  };
}
