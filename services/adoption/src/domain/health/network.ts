import type { MaturityRung } from '../state/adoption-state.js';
import type { ComponentScore } from './component-score.js';
import { toPercent, topEventIds } from './component-score.js';
import { NETWORK_TARGET_EDGES } from './health-model.js';
import type { NetworkEdges } from './network-edges.js';

/**
 * Half breadth (active partners against the rung's target), half depth (share of live
 * connections that are active). Always present: a network platform with no network is not a
 * missing measurement, it is a zero.
 */
export function network(edges: NetworkEdges, rung: MaturityRung): ComponentScore {
  const target = NETWORK_TARGET_EDGES[rung];
  const breadth = Math.min(1, edges.active / target);
  const depth = edges.active / Math.max(1, edges.live);
  return {
    code: 'NETWORK',
    present: true,
    value: toPercent(0.5 * breadth + 0.5 * depth),
    eventIds: topEventIds(edges.contributions),
    reason: `${edges.active} of ${edges.live} connected partners exchanged data in the last 30 days (target at ${rung}: ${target}).`,
  };
}
