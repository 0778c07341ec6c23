import type { UpgradeContext as WireUpgradeContext, UpgradeContext__Output } from './entitlements.js';

/** A tier as the spec names it in an upgrade context. */
export interface UpgradeTierRef {
  readonly code: string;
  readonly name: string;
}

/**
 * The spec's Upgrade context: what the caller is shown when it meets a capability, limit or
 * rate limit its tier lacks. `targetTier` exists only when an upgrade is available.
 */
export interface UpgradeContextView {
  readonly capability: string;
  readonly frictionType: string;
  readonly upgradeAvailable: boolean;
  readonly currentTier: UpgradeTierRef;
  readonly targetTier?: UpgradeTierRef;
  readonly headline: string;
  readonly featureHighlights: readonly string[];
  readonly cta: string;
}

/**
 * The spec's shape from the wire message of either service (entitlements.v1 and adoption.v1
 * carry the same fields): the one mapping the gateway and adoption use. A target tier on a
 * context without an upgrade is dropped, whatever the sender put there.
 */
export function upgradeContextFromWire(context: UpgradeContext__Output): UpgradeContextView & {
  readonly featureHighlights: string[];
} {
  const tier = (ref: UpgradeTierRef) => ({ code: ref.code, name: ref.name });
  return {
    capability: context.capability,
    frictionType: context.frictionType,
    upgradeAvailable: context.upgradeAvailable,
    currentTier: tier(context.currentTier ?? { code: '', name: '' }),
    ...(context.upgradeAvailable && context.targetTier ? { targetTier: tier(context.targetTier) } : {}),
    headline: context.headline,
    featureHighlights: [...context.featureHighlights],
    cta: context.cta,
  };
}

/** The wire message (either service's) of a context in the spec's shape; no targetTier without an upgrade. */
export function upgradeContextToWire(context: UpgradeContextView): WireUpgradeContext {
  return {
    capability: context.capability,
    frictionType: context.frictionType,
    upgradeAvailable: context.upgradeAvailable,
    currentTier: { code: context.currentTier.code, name: context.currentTier.name },
    ...(context.upgradeAvailable && context.targetTier
      ? { targetTier: { code: context.targetTier.code, name: context.targetTier.name } }
      : {}),
    headline: context.headline,
    featureHighlights: [...context.featureHighlights],
    cta: context.cta,
  };
}
