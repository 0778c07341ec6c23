import { connectionOf, partnerIndex } from '../facts/connections.js';
import type { FactLog } from '../facts/fact-log.js';
import { decayWeight } from '../time.js';
import type { Contribution } from './component-score.js';
import { ACTIVE_EDGE_THRESHOLD, EXCHANGE_KINDS, NETWORK_HALF_LIFE_MS } from './health-model.js';

/** The tenant's connections as seen from its own facts. */
export interface NetworkEdges {
  /** Connections accepted and not removed since. */
  readonly live: number;
  /** Live connections with an exchange in about the last 30 days (decayed weight >= 0.5). */
  readonly active: number;
  /** Exchange facts on active connections, weighted by recency. */
  readonly contributions: readonly Contribution[];
}

/**
 * Connections and their recent exchanges. We only see the tenant's own events, so "exchange"
 * means any exchange fact we can tie to the connection (see `connectionOf`), whichever side
 * started it.
 */
export function networkEdges(log: FactLog, now: number): NetworkEdges {
  const partners = partnerIndex(log);
  const live = new Set<string>();
  const activity = new Map<string, { weight: number; facts: Contribution[] }>();
  for (const fact of log.facts) {
    const connectionId = connectionOf(fact, partners);
    if (fact.type === 'connection.accepted') live.add(connectionId ?? fact.id);
    else if (fact.type === 'connection.removed' && connectionId !== undefined) live.delete(connectionId);
    else if (connectionId !== undefined && EXCHANGE_KINDS.includes(fact.type)) {
      const weight = decayWeight(now - fact.at, NETWORK_HALF_LIFE_MS);
      const edge = activity.get(connectionId) ?? { weight: 0, facts: [] };
      edge.weight += weight;
      edge.facts.push({ id: fact.id, weight });
      activity.set(connectionId, edge);
    }
  }
  let active = 0;
  const contributions: Contribution[] = [];
  for (const connectionId of live) {
    const edge = activity.get(connectionId);
    if (edge === undefined || edge.weight < ACTIVE_EDGE_THRESHOLD) continue;
    active += 1;
    contributions.push(...edge.facts);
  }
  return { live: live.size, active, contributions };
}
