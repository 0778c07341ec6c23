import type { CapabilityKey } from '../catalogue/capabilities.js';
import type { MilestoneProgress } from '../milestones/milestone-progress.js';
import type { ComponentScore, Contribution } from './component-score.js';
import { toPercent, topEventIds } from './component-score.js';
import { CHAPTER_WEIGHTS } from './health-model.js';

/**
 * Chapter-weighted share of the milestones the tenant can actually do. NOT_APPLICABLE milestones
 * and paid teasers outside the tier leave the denominator: nobody loses health for not buying.
 * A teaser done before a downgrade still counts, on both sides.
 */
export function journeyProgress(
  progress: ReadonlyMap<string, MilestoneProgress>,
  capabilities: ReadonlySet<CapabilityKey>,
): ComponentScore {
  let earned = 0;
  let possible = 0;
  let doneCount = 0;
  let countable = 0;
  const contributions: Contribution[] = [];
  for (const item of progress.values()) {
    const capability = item.definition.requiredCapability;
    const entitled = capability === null || capabilities.has(capability);
    if (!item.applicable || (!entitled && !item.done)) continue;
    const weight = CHAPTER_WEIGHTS[item.definition.chapter];
    possible += weight;
    countable += 1;
    if (!item.done) continue;
    earned += weight;
    doneCount += 1;
    if (item.completedBy !== null)
      contributions.push({ id: item.completedBy, weight: item.completedAt ?? 0 });
  }
  return {
    code: 'JOURNEY_PROGRESS',
    present: true,
    value: possible === 0 ? 0 : toPercent(earned / possible),
    // Most recent completions first: weight here is the completion instant.
    eventIds: topEventIds(contributions),
    reason: `${doneCount} of ${countable} milestones open to you are done (${earned} of ${possible} chapter-weighted points).`,
  };
}
