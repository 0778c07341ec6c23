import { Type } from '@sinclair/typebox';
import { CAPABILITY_KEYS, FRICTION_TYPES, LIMIT_KEYS, RATE_LIMIT_KEYS, TIER_CODES } from '@tap/contracts';
import { EnumText } from '../typebox.js';

/** A tier as answers name it. */
export const TierRef = Type.Object({ code: EnumText(TIER_CODES), name: Type.String() });

/** Any key the upgrade context answers for: a capability, a resource limit or a rate limit. */
export const ENTITLEMENT_KEYS = [...CAPABILITY_KEYS, ...LIMIT_KEYS, ...RATE_LIMIT_KEYS] as const;

/**
 * The spec's Upgrade context, one schema for every answer that carries it (entitlements'
 * upgrade-context, adoption's locked milestones and upgrade prompt); `targetTier` is omitted when
 * no upgrade is available.
 */
export const UpgradeContext = Type.Object({
  capability: EnumText(ENTITLEMENT_KEYS),
  frictionType: EnumText(FRICTION_TYPES),
  upgradeAvailable: Type.Boolean(),
  currentTier: TierRef,
  targetTier: Type.Optional(TierRef),
  headline: Type.String(),
  featureHighlights: Type.Array(Type.String()),
  cta: Type.String(),
});
