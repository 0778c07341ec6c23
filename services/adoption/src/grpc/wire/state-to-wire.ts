import type {
  AdoptionState as WireState,
  AdoptionUpgradeContext,
  Milestone as WireMilestone,
} from '@tap/contracts';
import type { AdoptionState, Milestone, UpgradeContext } from '../../domain/index.js';

/** An upgrade context as adoption.v1 carries it (`targetTier` absent when there is none). */
export function upgradeContextToWire(context: UpgradeContext): AdoptionUpgradeContext {
  return {
    capability: context.capability,
    frictionType: context.frictionType,
    upgradeAvailable: context.upgradeAvailable,
    currentTier: { code: context.currentTier.code, name: context.currentTier.name },
    ...(context.targetTier
      ? { targetTier: { code: context.targetTier.code, name: context.targetTier.name } }
      : {}),
    headline: context.headline,
    featureHighlights: [...context.featureHighlights],
    cta: context.cta,
  };
}

/** A domain milestone as the adoption.v1 message. */
export function milestoneToWire(m: Milestone): WireMilestone {
  return {
    key: m.key,
    chapter: m.chapter,
    internalStage: m.internalStage,
    status: m.status,
    completionMode: m.completionMode,
    triggerEvent: m.triggerEvent,
    dependsOn: [...m.dependsOn],
    displayOrder: m.displayOrder,
    ...(m.requiredCapability === null ? {} : { requiredCapability: m.requiredCapability }),
    paidTeaser: m.paidTeaser,
    lockedReasons: m.lockedReasons.map((r) => ({ unmetDependencyKey: r.unmetDependencyKey })),
    ...(m.completedAt === null ? {} : { completedAt: m.completedAt }),
    ...(m.upgradeContext === null ? {} : { upgradeContext: upgradeContextToWire(m.upgradeContext) }),
  };
}

/** The domain aggregate as the adoption.v1 message. */
export function stateToWire(state: AdoptionState, appliedEventCount: number): WireState {
  return {
    companyId: state.companyId,
    currentMaturityRung: state.currentMaturityRung,
    pathProfile: state.pathProfile,
    ...(state.healthScore === null ? {} : { healthScore: state.healthScore }),
    healthBand: state.healthBand,
    networkDensity: state.networkDensity,
    lastRecomputedAt: state.lastRecomputedAt,
    version: state.version,
    appliedEventCount,
    milestones: state.milestones.map(milestoneToWire),
  };
}
