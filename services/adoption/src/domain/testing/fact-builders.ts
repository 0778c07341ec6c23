/**
 * Builders for the domain's own tests (not used by production code). Times are given as days
 * (fractions allowed) after a fixed origin, so tests read as timelines.
 */
import type { CapabilityKey } from '../catalogue/capabilities.js';
import type { PathProfile } from '../catalogue/milestone-definition.js';
import type { EventFact, ManualCompletion } from '../facts/facts.js';
import type { TierRef, UpgradeContext } from '../state/adoption-state.js';
import type { RecomputeInput } from '../state/recompute.js';
import { DAY_MS, toIso } from '../time.js';

/** The origin of test timelines: 2025-01-01T00:00:00Z. */
export const ORIGIN_MS = Date.UTC(2025, 0, 1);

/** The instant `days` after the origin. */
export function dayAt(days: number): Date {
  return new Date(ORIGIN_MS + days * DAY_MS);
}

/** ISO text of the instant `days` after the origin. */
export function isoAt(days: number): string {
  return toIso(ORIGIN_MS + days * DAY_MS);
}

/** A fact of `type` on day `days`; its id is derived from its content unless given. */
export function fact(
  type: string,
  days: number,
  subject: Record<string, string> = {},
  options: { id?: string; data?: Record<string, string> } = {},
): EventFact {
  const id =
    options.id ??
    `${type}@${days}${Object.values(subject)
      .map((v) => `:${v}`)
      .join('')}`;
  return { id, type, occurredAt: isoAt(days), subject, data: options.data ?? {} };
}

/** A manual completion of `key` on day `days`. */
export function completion(key: string, days: number, evidenceRef: string | null = null): ManualCompletion {
  return { id: `completion:${key}`, key, completedAt: isoAt(days), evidenceRef, actorId: null };
}

/** Every capability key: a tenant on the top tier. */
export const ALL_CAPABILITIES = [
  'API_ACCESS',
  'BULK_UPLOAD',
  'TRACEABILITY',
  'DIGITAL_PRODUCT_PASSPORTS',
  'EXPECTED_DATA_SETS',
  'SUPPLIER_CASCADE',
  'NETWORK_ANALYTICS',
];

/** A recompute input with defaults: tenant t-1, SUPPLIER, no facts, no capabilities, day 0. */
export function recomputeInput(
  overrides: Partial<RecomputeInput> & { profile?: PathProfile } = {},
): RecomputeInput {
  const { profile, ...rest } = overrides;
  return {
    companyId: 't-1',
    pathProfile: profile ?? 'SUPPLIER',
    facts: [],
    manualCompletions: [],
    capabilities: [],
    previousBand: null,
    version: 0,
    now: dayAt(0),
    ...rest,
  };
}

/** The upgrade context entitlements would send for `capability` when `target` grants it. */
export function upgradeOffer(capability: CapabilityKey, current: TierRef, target: TierRef): UpgradeContext {
  const headline = `Unlock ${capability} with ${target.name}`;
  return {
    capability,
    frictionType: 'CAPABILITY',
    upgradeAvailable: true,
    currentTier: current,
    targetTier: target,
    headline,
    featureHighlights: [headline],
    cta: `Upgrade to ${target.name}`,
  };
}
