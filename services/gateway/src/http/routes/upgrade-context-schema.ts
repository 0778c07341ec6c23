import { Type } from '@sinclair/typebox';

/** A tier as answers name it. */
export const TierRef = Type.Object({ code: Type.String(), name: Type.String() });

/**
 * The spec's Upgrade context, one schema for every answer that carries it (entitlements'
 * upgrade-context, adoption's locked milestones and upgrade prompt); `targetTier` is omitted when
 * no upgrade is available.
 */
export const UpgradeContext = Type.Object({
  capability: Type.String(),
  frictionType: Type.String(),
  upgradeAvailable: Type.Boolean(),
  currentTier: TierRef,
  targetTier: Type.Optional(TierRef),
  headline: Type.String(),
  featureHighlights: Type.Array(Type.String()),
  cta: Type.String(),
});
