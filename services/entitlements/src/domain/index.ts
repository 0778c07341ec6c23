/**
 * The entitlements domain: the tier catalogue as data, and pure rules over it. No I/O, no
 * clock of its own (every rule that needs time takes `now`), no transport or storage imports.
 */
export { entitlementErrors } from './errors.js';
export type { EntitlementErrorCode } from './errors.js';

export {
  CAPABILITY_KEYS,
  LIMIT_KEYS,
  MONTHLY_LIMIT_KEYS,
  RATE_LIMIT_KEYS,
  isCapabilityKey,
  isLimitKey,
  isMonthlyLimit,
  isRateLimitKey,
} from './catalogue/keys.js';
export type { CapabilityKey, EntitlementKey, LimitKey, RateLimitKey } from './catalogue/keys.js';
export { TIER_CODES } from './catalogue/tier.js';
export type { PathProfile, Tier, TierCode, TierRef } from './catalogue/tier.js';
export { TIERS } from './catalogue/tiers.js';
export { getTier, isTierCode, tierRef, tiersAbove, upgradeLadder } from './catalogue/tier-lookup.js';
export { CAPABILITY_COPY, LIMIT_COPY, formatCount } from './catalogue/copy.js';
export type { CapabilityCopy, LimitCopy } from './catalogue/copy.js';

export { CAN_ACTIONS, canActionRule, isCanAction, parseCanAction } from './can/can-actions.js';
export type { CanAction, CanActionRule } from './can/can-actions.js';
export { assertResourceCount, checkLimit, evaluateCan } from './can/evaluate-can.js';
export type { CanDecision, CanDetails, CanReason } from './can/evaluate-can.js';

export { describeValue, isNonNegativeSafeInteger, readCount } from './usage/usage-snapshot.js';
export type { RateUsageSnapshot, UsageSnapshot } from './usage/usage-snapshot.js';
export {
  assertValidDate,
  dayWindowResetsAt,
  minuteWindowResetsAt,
  monthlyPeriod,
  monthlyResetsAt,
  parseTimestamp,
  rateWindowResetsAt,
} from './usage/periods.js';
export { APPROACHING_PERCENT, buildWarnings, warningFor } from './usage/usage-warnings.js';
export type { UsageWarning, WarningInput, WarningLevel } from './usage/usage-warnings.js';
export { buildUsageReport } from './usage/usage-report.js';
export type { LimitUsage, RateLimitUsage, UsageReport } from './usage/usage-report.js';
export { applyCounterDelta, counterDelta, counterPeriod } from './usage/counter-delta.js';
export type { CounterDelta, CounterState } from './usage/counter-delta.js';
export { COUNTED_EVENT_TYPES, usageDeltasFor } from './usage/event-counting.js';
export type { DistinctGuard, EventUsageDelta, UsageEvent } from './usage/event-counting.js';

export { FRICTION_TYPES, classifyKey, resolveFrictionKey } from './upgrade/friction.js';
export type { FrictionKey, FrictionType } from './upgrade/friction.js';
export { alreadyHasAll, findUpgradeTarget, grantsMore, raisesLimit } from './upgrade/upgrade-target.js';
export { MAX_FEATURE_HIGHLIGHTS } from './upgrade/upgrade-copy.js';
export { buildUpgradeContext } from './upgrade/upgrade-context.js';
export type { UpgradeContext } from './upgrade/upgrade-context.js';

export {
  DEFAULT_RESERVATION_TTL_MS,
  MAX_RESERVATION_TTL_MS,
  MIN_RESERVATION_TTL_MS,
  RESERVATION_RETENTION_MS,
} from './reservations/reservation.js';
export type { Reservation, ReservationRequest, ReservationState } from './reservations/reservation.js';
export { assertIdempotencyKey, isIdempotencyKey } from './reservations/idempotency-key.js';
export { planReservation, resolveUnmatchedReservation } from './reservations/plan-reservation.js';
export type {
  ReservationGuard,
  ReservationOutcome,
  ReservationPlan,
  ReservationResolution,
} from './reservations/plan-reservation.js';
export {
  isReservationExpired,
  planConsume,
  planExpiry,
  planRelease,
} from './reservations/reservation-transitions.js';
export type { ReservationTransition } from './reservations/reservation-transitions.js';
export { isPastRetention, planCleanup } from './reservations/reservation-cleanup.js';
export type { CleanupPlan } from './reservations/reservation-cleanup.js';
export { settleEventDelta } from './reservations/event-settlement.js';
export type { EventSettlement } from './reservations/event-settlement.js';
export { foldUsageBatch, writeParts } from './usage/fold-usage-batch.js';
export type { FoldItem, FoldStart, UsageFold } from './usage/fold-usage-batch.js';

export { assertSeatUserId, MAX_SYNC_SEATS, seatSetOf } from './seats/seat-user-id.js';
export * from './history/index.js';
export { TIER_CATALOGUE_VERSION, tierChangedData } from './announcements/tier-changed.js';
export { mayCrossDailyQuotaThreshold } from './announcements/daily-quota-crossing.js';
export type { TierChangedData } from './announcements/tier-changed.js';
