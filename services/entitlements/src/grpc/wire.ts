import type {
  CanDecision as WireCanDecision,
  Reservation as WireReservation,
  TierAssignment as WireTierAssignment,
  UsageReport as WireUsageReport,
} from '@tap/contracts';
import type { TierAssignment } from '../operations/ports/tier-assignments-repository.js';
import {
  CAPABILITY_KEYS,
  LIMIT_KEYS,
  RATE_LIMIT_KEYS,
  getTier,
  readCount,
  type CanDecision,
  type RateUsageSnapshot,
  type Reservation,
  type UsageReport,
} from '../domain/index.js';

/** A tier assignment with its tier's name, profile, capabilities and API limits. */
export function tierAssignmentToWire(assignment: TierAssignment): WireTierAssignment {
  const tier = getTier(assignment.tierCode);
  return {
    tenantId: assignment.tenantId,
    tierCode: tier.code,
    tierName: tier.name,
    pathProfile: tier.pathProfile,
    capabilities: CAPABILITY_KEYS.filter((key) => tier.capabilities[key]),
    updatedAt: assignment.updatedAt.toISOString(),
    apiRequestsPerMinute: tier.rateLimits.API_REQUESTS_MINUTE,
    apiRequestsPerDay: tier.rateLimits.API_REQUESTS_DAY,
  };
}

/** The usage report as lists in catalogue order (a proto map would lose the order). */
export function usageReportToWire(report: UsageReport): WireUsageReport {
  return {
    tier: { ...report.tier },
    limits: LIMIT_KEYS.map((key) => {
      const { current, limit, unlimited } = report.limits[key];
      return { key, current, unlimited, ...(limit === null ? {} : { limit }) };
    }),
    rateLimits: RATE_LIMIT_KEYS.flatMap((key) => {
      const window = report.rateLimits[key];
      return window ? [{ key, ...window }] : [];
    }),
    warnings: report.warnings.map((warning) => ({ ...warning })),
  };
}

/**
 * The API request counts a caller passed to GetUsage; absent fields stay absent (read as 0).
 * Checked here, whatever the tier: a tier without API windows would otherwise never read them.
 */
export function rateUsageFromWire(request: {
  apiRequestsDay?: number;
  apiRequestsMinute?: number;
}): RateUsageSnapshot {
  const rateUsage: RateUsageSnapshot = {
    ...(request.apiRequestsDay === undefined ? {} : { API_REQUESTS_DAY: request.apiRequestsDay }),
    ...(request.apiRequestsMinute === undefined ? {} : { API_REQUESTS_MINUTE: request.apiRequestsMinute }),
  };
  for (const key of RATE_LIMIT_KEYS) readCount(rateUsage, key);
  return rateUsage;
}

/** `can`'s decision; `reason` and `details` are absent exactly where the spec has null / no key. */
export function canDecisionToWire(decision: CanDecision): WireCanDecision {
  if (decision.allowed) return { allowed: true };
  if (decision.reason === 'LIMIT_EXCEEDED')
    return { allowed: false, reason: decision.reason, details: { ...decision.details } };
  return { allowed: false, reason: decision.reason };
}

// One upgrade-context mapping for every service (@tap/contracts).
export { upgradeContextToWire } from '@tap/contracts';

/** A reservation; null period and settledAt are left unset. */
export function reservationToWire(reservation: Reservation): WireReservation {
  const { period, settledAt, ...rest } = reservation;
  return { ...rest, ...(period === null ? {} : { period }), ...(settledAt === null ? {} : { settledAt }) };
}
