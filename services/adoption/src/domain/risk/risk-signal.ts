/** The six drift-watch risks. */
export const RISK_KINDS = [
  'INVITATION_UNACCEPTED',
  'POLICY_UNVIEWED',
  'INTEGRATION_FAILING',
  'DATA_STALE',
  'CASCADE_STALLED',
  'REQUEST_UNANSWERED',
] as const;
/** A drift-watch risk kind. */
export type RiskKind = (typeof RISK_KINDS)[number];

/** Severities, mildest first. */
export const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
/** How much a signal matters. */
export type Severity = (typeof SEVERITIES)[number];

/** The escalation ladder, in order; RESOLVED can be reached from any rung. */
export const RESOLUTIONS = ['OPEN', 'AUTO_NUDGED', 'REO_PROMPTED', 'ESCALATED', 'RESOLVED'] as const;
/** Where a signal stands on the ladder. */
export type Resolution = (typeof RESOLUTIONS)[number];

/** A drift-watch item (the spec's Risk signal). */
export interface RiskSignal {
  /** Name-based UUID of (tenant, kind, subject): the same risk always has the same id. */
  readonly id: string;
  readonly kind: RiskKind;
  readonly severity: Severity;
  readonly resolution: Resolution;
  readonly escalatedToHuman: boolean;
  /** What the risk is about, e.g. `{ connectionId }`; `{ companyId }` for tenant-wide risks. */
  readonly subjectRef: Readonly<Record<string, string>>;
  readonly detectedAt: string;
  readonly resolvedAt: string | null;
}
