import type { FactLog, TimedFact } from './fact-log.js';

/** partnerTenantId → connectionId, from the connection facts that name the partner. */
export type PartnerIndex = ReadonlyMap<string, string>;

/** Which connection links the tenant to each partner tenant (the latest one, if several). */
export function partnerIndex(log: FactLog): PartnerIndex {
  const partners = new Map<string, string>();
  for (const fact of log.facts) {
    if (fact.type !== 'connection.invited' && fact.type !== 'connection.accepted') continue;
    const connectionId = fact.subject['connectionId'];
    const partner = fact.data['partnerTenantId'];
    if (connectionId !== undefined && partner !== undefined) partners.set(partner, connectionId);
  }
  return partners;
}

/**
 * The connection a fact travelled over: its `connectionId` ref when the producer sent one,
 * otherwise the connection to the tenant that viewed (`data.viewerTenantId`), since the event
 * contract identifies a product viewer by tenant, not by connection.
 */
export function connectionOf(fact: TimedFact, partners: PartnerIndex): string | undefined {
  const direct = fact.subject['connectionId'];
  if (direct !== undefined) return direct;
  const viewer = fact.data['viewerTenantId'];
  return viewer === undefined ? undefined : partners.get(viewer);
}
