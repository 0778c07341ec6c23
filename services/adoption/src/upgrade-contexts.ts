import {
  appliesTo,
  capabilitySet,
  MILESTONE_DEFINITIONS,
  type CapabilityKey,
  type UpgradeContext,
  type UpgradeContexts,
} from './domain/index.js';
import type { TierView } from './tier.js';

/**
 * Asks entitlements what to offer the token's tenant for one capability. The answer is a function
 * of the tier and the capability only (entitlements' buildUpgradeContext), so `tierCode` (the
 * tier adoption was told) lets a cache share it between tenants of one tier.
 */
export type UpgradeContextLookup = (
  capability: CapabilityKey,
  authorization: string,
  tierCode: string,
) => Promise<UpgradeContext>;

export interface UpgradeContextLogger {
  warn(object: object, message: string): void;
}

/** Paid capabilities the tier lacks that gate a milestone of its profile (at most seven). */
export function missingCapabilities(tier: TierView): readonly CapabilityKey[] {
  const granted = capabilitySet(tier.capabilities);
  const wanted = new Set<CapabilityKey>();
  for (const definition of MILESTONE_DEFINITIONS) {
    const capability = definition.requiredCapability;
    if (capability !== null && !granted.has(capability) && appliesTo(definition, tier.pathProfile))
      wanted.add(capability);
  }
  return [...wanted].sort();
}

/**
 * The upgrade contexts for the capabilities the tier lacks, asked of entitlements in parallel
 * with the caller's token. A context entitlements cannot give is left out (the milestone then
 * shows `upgradeContext: null`): an upgrade prompt is never worth failing the tenant's read.
 */
export async function fetchUpgradeContexts(
  tier: TierView,
  lookup: UpgradeContextLookup,
  authorization: string,
  logger: UpgradeContextLogger,
): Promise<UpgradeContexts> {
  const capabilities = missingCapabilities(tier);
  const answers = await Promise.allSettled(
    capabilities.map((capability) => lookup(capability, authorization, tier.tierCode)),
  );
  const contexts: Partial<Record<CapabilityKey, UpgradeContext>> = {};
  answers.forEach((answer, i) => {
    const capability = capabilities[i];
    if (capability === undefined) return;
    if (answer.status === 'fulfilled') contexts[capability] = answer.value;
    else
      logger.warn({ err: answer.reason as unknown, capability }, 'upgrade context unavailable; showing none');
  });
  return contexts;
}
