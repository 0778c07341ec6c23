import type { AdoptionState as WireState } from '@tap/contracts';
import type { AdoptionState } from '../domain/index.js';

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
    milestones: state.milestones.map((m) => ({
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
    })),
  };
}
