import type { EventKind } from '../catalogue/event-kinds.js';
import { DAY_MS, HOUR_MS } from '../time.js';
import type { Resolution, RiskKind, Severity } from './risk-signal.js';

/** Delays, counted from `detectedAt`, after which a still-open signal climbs the ladder. */
export interface EscalationDelays {
  readonly AUTO_NUDGED: number;
  readonly REO_PROMPTED: number;
  readonly ESCALATED: number;
}

/**
 * A timer over one subject's facts. `arms` starts the timer when it is idle; `rearms` (activity)
 * resolves any open episode and restarts a running timer; `clears` resolves and stops it. The
 * risk is detected when the timer has run `graceMs` without being cleared or re-armed.
 */
export interface RiskRule {
  readonly kind: RiskKind;
  /** The subject ref the rule groups facts by, or TENANT for one tenant-wide subject. */
  readonly subject: 'connectionId' | 'policyId' | 'integrationId' | 'cascadeId' | 'requestId' | 'TENANT';
  readonly arms: readonly EventKind[];
  readonly rearms: readonly EventKind[];
  readonly clears: readonly EventKind[];
  readonly graceMs: number;
  /** A second arming fact while the timer runs detects at once (a repeated failure). */
  readonly detectOnRepeat: boolean;
  readonly baseSeverity: Severity;
  readonly delays: EscalationDelays;
}

const DATA_UPDATES: readonly EventKind[] = [
  'product.created',
  'product.updated',
  'product_version.published',
  'import.completed',
  'integration.succeeded',
];
const CASCADE_ACTIVITY: readonly EventKind[] = [
  'connection.invited',
  'connection.accepted',
  'data_request.sent',
  'data_request.answered',
  'data_set.expected',
  'trace.recorded',
];

const days = (n: number): number => n * DAY_MS;

/**
 * How far back the drift watch looks: a subject's risk facts count until the end of their UTC
 * day plus this, then leave the summary (section 17's `r` slots expire) and detection alike. So
 * the ledger holds only subjects with risk activity in the last 180 days (the raw log's retention
 * too): an episode resolved, or left escalated, for longer drops out instead of piling up for the
 * tenant's whole life (docs/adoption-model.md §9.2).
 */
export const RISK_HISTORY_MS = days(180);

/** Whether a risk fact at `at` still counts at `now` (its UTC day ended less than RISK_HISTORY_MS ago). */
export function riskFactCounts(at: number, now: number): boolean {
  return riskFactExpiresAt(at) > now;
}

/** When a risk fact at `at` stops counting: the end of its UTC day plus RISK_HISTORY_MS. */
export function riskFactExpiresAt(at: number): number {
  return (Math.floor(at / DAY_MS) + 1) * DAY_MS + RISK_HISTORY_MS;
}
const hours = (n: number): number => n * HOUR_MS;

/** The six detection rules and their escalation delays (placeholders to calibrate on real tenants). */
// prettier-ignore
export const RISK_RULES: Readonly<Record<RiskKind, RiskRule>> = {
  INVITATION_UNACCEPTED: {
    kind: 'INVITATION_UNACCEPTED', subject: 'connectionId', arms: ['connection.invited'], rearms: [],
    clears: ['connection.accepted', 'connection.removed'], graceMs: days(3), detectOnRepeat: false,
    baseSeverity: 'LOW', delays: { AUTO_NUDGED: days(1), REO_PROMPTED: days(7), ESCALATED: days(14) },
  },
  POLICY_UNVIEWED: {
    kind: 'POLICY_UNVIEWED', subject: 'policyId', arms: ['policy.published'], rearms: [],
    clears: ['policy.viewed'], graceMs: days(7), detectOnRepeat: false,
    baseSeverity: 'LOW', delays: { AUTO_NUDGED: days(1), REO_PROMPTED: days(7), ESCALATED: days(21) },
  },
  INTEGRATION_FAILING: {
    kind: 'INTEGRATION_FAILING', subject: 'integrationId', arms: ['integration.failed'], rearms: [],
    clears: ['integration.succeeded'], graceMs: hours(24), detectOnRepeat: true,
    baseSeverity: 'MEDIUM', delays: { AUTO_NUDGED: hours(1), REO_PROMPTED: hours(24), ESCALATED: hours(72) },
  },
  DATA_STALE: {
    kind: 'DATA_STALE', subject: 'TENANT', arms: DATA_UPDATES, rearms: DATA_UPDATES,
    clears: [], graceMs: days(30), detectOnRepeat: false,
    baseSeverity: 'LOW', delays: { AUTO_NUDGED: days(1), REO_PROMPTED: days(3), ESCALATED: days(10) },
  },
  CASCADE_STALLED: {
    kind: 'CASCADE_STALLED', subject: 'cascadeId', arms: ['cascade.started'], rearms: CASCADE_ACTIVITY,
    clears: ['cascade.completed'], graceMs: days(7), detectOnRepeat: false,
    baseSeverity: 'MEDIUM', delays: { AUTO_NUDGED: days(1), REO_PROMPTED: days(7), ESCALATED: days(14) },
  },
  REQUEST_UNANSWERED: {
    kind: 'REQUEST_UNANSWERED', subject: 'requestId', arms: ['data_request.sent'], rearms: [],
    clears: ['data_request.answered'], graceMs: days(7), detectOnRepeat: false,
    baseSeverity: 'MEDIUM', delays: { AUTO_NUDGED: days(1), REO_PROMPTED: days(3), ESCALATED: days(7) },
  },
};

/** Severity steps added on the way up the ladder: it grows by one at REO_PROMPTED and again at ESCALATED. */
export const SEVERITY_STEP: Readonly<Record<Resolution, number>> = {
  OPEN: 0,
  AUTO_NUDGED: 0,
  REO_PROMPTED: 1,
  ESCALATED: 2,
  RESOLVED: 0,
};
