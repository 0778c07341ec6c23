/**
 * The adoption domain: the milestone catalogue as versioned data and the pure rules over a
 * tenant's facts. No I/O, no clock, no randomness: callers pass `now` and `newId`. Stores,
 * gRPC handlers and event consumers build on what is exported here.
 */
export { adoptionErrors } from './errors.js';
export type { AdoptionError, AdoptionErrorCode } from './errors.js';
export { fail, ok } from './result.js';
export type { Result } from './result.js';
export { DAY_MS, HOUR_MS, parseInstant, toIso } from './time.js';

export { CAPABILITY_KEYS, capabilitySet, isCapabilityKey } from './catalogue/capabilities.js';
export type { CapabilityKey } from './catalogue/capabilities.js';
export { EVENT_KINDS, isEventKind, MILESTONE_COMPLETED_EVENT } from './catalogue/event-kinds.js';
export type { EventKind } from './catalogue/event-kinds.js';
export { COMPLETION_MODES, INTERNAL_STAGES, PATH_PROFILES } from './catalogue/milestone-definition.js';
export type {
  Chapter,
  CompletionMode,
  InternalStage,
  MilestoneDefinition,
  PathProfile,
} from './catalogue/milestone-definition.js';
export { MILESTONE_DEFINITIONS } from './catalogue/catalogue-data.js';
export { appliesTo, CATALOGUE_VERSION, findDefinition, isKnownForProfile } from './catalogue/catalogue.js';

export { FACT_DATA_FIELDS, toFact } from './facts/facts.js';
export type { EventEnvelope, EventFact, ManualCompletion } from './facts/facts.js';

export { HEALTH_BANDS, MATURITY_RUNGS, MILESTONE_STATUSES, rungIndex } from './state/adoption-state.js';
export type {
  AdoptionState,
  HealthBand,
  LockedReason,
  MaturityRung,
  Milestone,
  MilestoneStatus,
  TierRef,
  UpgradeContext,
  UpgradeContexts,
} from './state/adoption-state.js';
export { RUNG_GATES } from './state/maturity-rung.js';
export { recompute } from './state/recompute.js';
export type { RecomputeInput, RecomputeResult } from './state/recompute.js';
export type { AdoptionExplanation } from './state/explanation.js';
export {
  BAND_THRESHOLDS,
  COMPONENT_LABELS,
  COMPONENT_WEIGHTS,
  HEALTH_COMPONENTS,
  HEALTH_MODEL_VERSION,
} from './health/health-model.js';
export type { HealthComponentCode } from './health/health-model.js';
export type { HealthComponentExplanation } from './health/health-score.js';

export {
  completeMilestone,
  MAX_EVIDENCE_REF,
  milestoneCompletedEvent,
} from './milestones/complete-milestone.js';
export type { CompleteMilestoneOptions, CompleteMilestoneOutcome } from './milestones/complete-milestone.js';
export {
  DEFAULT_TIER_CODE,
  isNewerTier,
  sameTier,
  TIER_CHANGED_EVENT,
  tierChangeOf,
  UNSEEN_TIER,
} from './tier/tier.js';
export type { TierChange, TierEntry, TierView } from './tier/tier.js';
export {
  detectedCompletion,
  detectedCompletionId,
  newCompletions,
} from './milestones/detected-completions.js';
export type { NewCompletion } from './milestones/detected-completions.js';

export { NBA_WEIGHTS, nextBestAction } from './nba/next-best-action.js';
export type {
  NextBestActionMilestone,
  NextBestActionOptions,
  NextBestActionView,
} from './nba/next-best-action.js';

export { COVERAGE_CELL_KEYS, coverageCells } from './coverage/coverage-cells.js';
export type { CoverageCell, CoverageInput } from './coverage/coverage-cells.js';

export { RESOLUTIONS, RISK_KINDS, SEVERITIES } from './risk/risk-signal.js';
export type { Resolution, RiskKind, RiskSignal, Severity } from './risk/risk-signal.js';
export { RISK_HISTORY_MS, RISK_RULES } from './risk/risk-rules.js';
export type { EscalationDelays, RiskRule } from './risk/risk-rules.js';
export { detectRiskSignals } from './risk/detect-risk-signals.js';
export type { DetectRiskSignalsInput } from './risk/detect-risk-signals.js';
export { advance, resolve } from './risk/escalation.js';
export {
  activeSignals,
  DEFAULT_SIGNAL_LIMIT,
  MAX_SIGNAL_LIMIT,
  signalTransitions,
} from './risk/active-signals.js';
export type { SignalTransition } from './risk/active-signals.js';
export { RISK_SIGNAL_NAMESPACE, riskSignalId } from './risk/signal-id.js';
export {
  auditEvent,
  boundedEvents,
  INITIAL_LEVELS,
  MAX_PENDING_EVENTS,
  OUTBOUND_EVENT_NAMESPACE,
  writeEvents,
} from './outbound/outbound-events.js';
export type { AuditActor, OutboundEvent, ProjectedLevels, WriteChange } from './outbound/outbound-events.js';

export { PLAN_MANAGER_ROLES, PLAN_STATUSES, mayManagePlans } from './plans/success-plan.js';
export type {
  CreatePlanRequest,
  Objective,
  PlanStatus,
  RenewPlanRequest,
  SuccessPlan,
} from './plans/success-plan.js';
export { MAX_OBJECTIVES, MAX_PLAN_TEXT } from './plans/validate-plan.js';
export { createPlan } from './plans/create-plan.js';
export type { CreatePlanContext } from './plans/create-plan.js';
export { renewPlan } from './plans/renew-plan.js';
export type { PlanRenewal, RenewPlanContext } from './plans/renew-plan.js';
export { evaluatePlan } from './plans/objectives.js';
export { EMPTY_SUMMARY, foldFacts, summaryFacts, summaryHolds } from './summary/tenant-summary.js';
export {
  addItemCounts,
  countItems,
  countTouches,
  firstTouches,
  itemCount,
  itemTouches,
  markerKey,
  pairLookups,
} from './items/distinct-items.js';
export type { ItemCounts, ItemSpace, ItemTouch, StoredMarker } from './items/distinct-items.js';
export type { KindCounter, SummarySlot, TenantSummary } from './summary/tenant-summary.js';
export { changedSlots, overlaySlots, slotFactCount } from './summary/summary-layers.js';
export { mergeSignals } from './risk/merge-signals.js';
export { earlierCheck, nextDriftCheck } from './risk/next-check.js';
export { emptyProjection, projectionOf } from './projection/tenant-projection.js';
export type {
  EmptyProjectionInput,
  ProjectionInput,
  TenantProjection,
} from './projection/tenant-projection.js';
