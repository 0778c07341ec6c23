import type {
  AdoptionState__Output,
  CoverageCell__Output,
  HealthExplanation__Output,
  Milestone__Output,
  NextBestActionView__Output,
  RiskSignal__Output,
  SuccessPlan__Output,
} from '@tap/contracts';
import { upgradeContextFromWire } from '@tap/contracts';

/** The spec's Milestone resource from the wire message. */
export function milestoneJson(m: Milestone__Output) {
  return {
    key: m.key,
    chapter: m.chapter,
    internalStage: m.internalStage,
    status: m.status,
    completionMode: m.completionMode,
    triggerEvent: m.triggerEvent,
    dependsOn: m.dependsOn,
    displayOrder: m.displayOrder,
    requiredCapability: m.requiredCapability ?? null,
    paidTeaser: m.paidTeaser,
    lockedReasons: m.lockedReasons.map((r) => ({ unmetDependencyKey: r.unmetDependencyKey })),
    completedAt: m.completedAt ?? null,
    upgradeContext: m.upgradeContext ? upgradeContextFromWire(m.upgradeContext) : null,
  };
}

/** The spec's Adoption state resource from the wire message. */
export function adoptionStateJson(s: AdoptionState__Output) {
  return {
    companyId: s.companyId,
    currentMaturityRung: s.currentMaturityRung,
    pathProfile: s.pathProfile,
    healthScore: s.healthScore ?? null,
    healthBand: s.healthBand,
    networkDensity: s.networkDensity,
    lastRecomputedAt: s.lastRecomputedAt,
    version: s.version,
    milestones: s.milestones.map(milestoneJson),
  };
}

/** The next-best-action response: the ranked milestone carries `unlocks` and `becauseOf`. */
export function nextBestActionJson(v: NextBestActionView__Output) {
  const best = v.nextBestAction;
  return {
    companyId: v.companyId,
    currentMaturityRung: v.currentMaturityRung,
    nextBestAction: best?.milestone
      ? { ...milestoneJson(best.milestone), unlocks: best.unlocks, becauseOf: best.becauseOf }
      : null,
    available: v.available.map(milestoneJson),
    locked: v.locked.map(milestoneJson),
    nextUpgradePrompt: v.nextUpgradePrompt ? upgradeContextFromWire(v.nextUpgradePrompt) : null,
  };
}

/** The spec's Coverage cell. */
export function coverageCellJson(c: CoverageCell__Output) {
  return {
    key: c.key,
    label: c.label,
    capable: c.capable,
    achieved: c.achieved,
    count: c.count,
    viewedCount: c.viewedCount,
  };
}

/** The spec's Risk signal. */
export function riskSignalJson(s: RiskSignal__Output) {
  return {
    id: s.id,
    kind: s.kind,
    severity: s.severity,
    resolution: s.resolution,
    escalatedToHuman: s.escalatedToHuman,
    subjectRef: s.subjectRef,
    detectedAt: s.detectedAt,
    resolvedAt: s.resolvedAt ?? null,
  };
}

/** The spec's Success plan. */
export function successPlanJson(p: SuccessPlan__Output) {
  return {
    id: p.id,
    title: p.title,
    targetDate: p.targetDate,
    status: p.status,
    renewedFromId: p.renewedFromId ?? null,
    objectives: p.objectives.map((o) => ({ label: o.label, milestoneKeys: o.milestoneKeys, met: o.met })),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** Our health explanation (not in the spec; docs/adoption-model.md, "Endpoints"). */
export function healthExplanationJson(e: HealthExplanation__Output) {
  return {
    companyId: e.companyId,
    catalogueVersion: e.catalogueVersion,
    healthModelVersion: e.healthModelVersion,
    asOf: e.asOf,
    healthScore: e.healthScore ?? null,
    healthBand: e.healthBand,
    bandReason: e.bandReason,
    maturityRung: e.maturityRung,
    rungReason: e.rungReason,
    networkDensity: e.networkDensity,
    components: e.components.map((c) => ({
      code: c.code,
      present: c.present,
      value: c.value ?? null,
      weight: c.weight,
      effectiveWeight: c.effectiveWeight,
      points: c.points,
      eventIds: c.eventIds,
      reason: c.reason,
    })),
    summary: e.summary,
  };
}
