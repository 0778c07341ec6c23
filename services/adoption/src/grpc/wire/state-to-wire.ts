import {
  upgradeContextToWire,
  type AdoptionState as WireState,
  type Milestone as WireMilestone,
} from '@tap/contracts';
import type { AdoptionState, Milestone } from '../../domain/index.js';

// adoption.v1 carries the same upgrade context as entitlements.v1: one mapping (@tap/contracts).
export { upgradeContextToWire };

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
