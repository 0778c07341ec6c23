import type {
  Coverage as WireCoverage,
  HealthExplanation as WireExplanation,
  NextBestActionView as WireNextBestAction,
  RiskSignal as WireRiskSignal,
} from '@tap/contracts';
import type {
  AdoptionExplanation,
  CoverageCell,
  NextBestActionView,
  RiskSignal,
} from '../../domain/index.js';
import { milestoneToWire, upgradeContextToWire } from './state-to-wire.js';

/** The next-best-action view as the adoption.v1 message. */
export function nextBestActionToWire(view: NextBestActionView): WireNextBestAction {
  const best = view.nextBestAction;
  return {
    companyId: view.companyId,
    currentMaturityRung: view.currentMaturityRung,
    ...(best === null
      ? {}
      : {
          nextBestAction: {
            milestone: milestoneToWire(best),
            unlocks: best.unlocks,
            becauseOf: best.becauseOf,
          },
        }),
    available: view.available.map(milestoneToWire),
    locked: view.locked.map(milestoneToWire),
    ...(view.nextUpgradePrompt === null
      ? {}
      : { nextUpgradePrompt: upgradeContextToWire(view.nextUpgradePrompt) }),
  };
}

/** Coverage cells as the adoption.v1 message. */
export function coverageToWire(cells: readonly CoverageCell[]): WireCoverage {
  return { cells: cells.map((c) => ({ ...c })) };
}

/** A drift-watch signal as the adoption.v1 message. */
export function riskSignalToWire(s: RiskSignal): WireRiskSignal {
  return {
    id: s.id,
    kind: s.kind,
    severity: s.severity,
    resolution: s.resolution,
    escalatedToHuman: s.escalatedToHuman,
    subjectRef: { ...s.subjectRef },
    detectedAt: s.detectedAt,
    ...(s.resolvedAt === null ? {} : { resolvedAt: s.resolvedAt }),
  };
}

/** The health explanation as the adoption.v1 message. */
export function explanationToWire(companyId: string, e: AdoptionExplanation): WireExplanation {
  return {
    companyId,
    catalogueVersion: e.catalogueVersion,
    healthModelVersion: e.healthModelVersion,
    asOf: e.asOf,
    ...(e.healthScore === null ? {} : { healthScore: e.healthScore }),
    healthBand: e.healthBand,
    bandReason: e.bandReason,
    maturityRung: e.maturityRung,
    rungReason: e.rungReason,
    networkDensity: e.networkDensity,
    components: e.components.map((c) => ({
      code: c.code,
      present: c.present,
      ...(c.value === null ? {} : { value: c.value }),
      weight: c.weight,
      effectiveWeight: c.effectiveWeight,
      points: c.points,
      eventIds: [...c.eventIds],
      reason: c.reason,
    })),
    summary: e.summary,
  };
}
