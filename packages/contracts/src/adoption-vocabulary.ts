/*
 * The words of the adoption answers, as the gateway's schemas (the OpenAPI document's enums)
 * name them. The adoption service's domain reads them from here (domain/state, catalogue, risk,
 * plans re-export them), so the service and the gateway cannot drift apart.
 */

/** The maturity ladder, lowest first. */
export const MATURITY_RUNGS = ['ONBOARDED', 'CONNECTED', 'EXCHANGING', 'TRACED', 'STRATEGIC'] as const;
export type MaturityRung = (typeof MATURITY_RUNGS)[number];

/** The health bands. */
export const HEALTH_BANDS = ['ONBOARDING', 'HEALTHY', 'AT_RISK', 'DRIFTING'] as const;
export type HealthBand = (typeof HEALTH_BANDS)[number];

/** Where a milestone stands for a tenant. */
export const MILESTONE_STATUSES = ['LOCKED', 'AVAILABLE', 'IN_PROGRESS', 'DONE', 'NOT_APPLICABLE'] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

/** How a milestone becomes DONE. */
export const COMPLETION_MODES = ['EVENT_DETECTED', 'MANUAL'] as const;
export type CompletionMode = (typeof COMPLETION_MODES)[number];

/** The two journeys: a supplier answering its customers, or a brand/retailer running its value chain. */
export const PATH_PROFILES = ['SUPPLIER', 'SVC'] as const;
export type PathProfile = (typeof PATH_PROFILES)[number];

/** The stage labels of the milestone catalogue. */
export const INTERNAL_STAGES = [
  'SETUP',
  'TEAM',
  'ACTIVATION',
  'CONNECTION',
  'EXCHANGE',
  'AUTOMATION',
  'TRACEABILITY',
  'COMPLIANCE',
  'EXPANSION',
] as const;
export type InternalStage = (typeof INTERNAL_STAGES)[number];

/** The six drift-watch risks. */
export const RISK_KINDS = [
  'INVITATION_UNACCEPTED',
  'POLICY_UNVIEWED',
  'INTEGRATION_FAILING',
  'DATA_STALE',
  'CASCADE_STALLED',
  'REQUEST_UNANSWERED',
] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

/** Risk severities, mildest first. */
export const RISK_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type RiskSeverity = (typeof RISK_SEVERITIES)[number];

/** The escalation ladder of a risk signal, in order; RESOLVED can be reached from any rung. */
export const RISK_RESOLUTIONS = ['OPEN', 'AUTO_NUDGED', 'REO_PROMPTED', 'ESCALATED', 'RESOLVED'] as const;
export type RiskResolution = (typeof RISK_RESOLUTIONS)[number];

/** A success plan: the active one, or one a renewal replaced. */
export const PLAN_STATUSES = ['ACTIVE', 'RENEWED'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
