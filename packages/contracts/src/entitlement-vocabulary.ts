/*
 * The words of the entitlement answers: tier codes and the keys of the tier catalogue. Their
 * strings are part of the public API (usage report keys, `can` details, upgrade-context
 * `capability`), so they never change; entitlements' catalogue and the gateway's schemas (the
 * OpenAPI document's enums) both read these lists.
 */

/** Every tier code, lowest first within each upgrade path. */
export const TIER_CODES = ['SUPPLIER_FREE', 'SUPPLIER_PLUS', 'CORE', 'SVC_CORE', 'ENTERPRISE'] as const;
/** A subscription tier code, as stored on the tenant and shown in the usage report. */
export type TierCode = (typeof TIER_CODES)[number];

/** Resource limits: object counts, plus the one monthly counter. */
export const LIMIT_KEYS = [
  'MAX_ACTIVE_PRODUCTS',
  'MAX_CONNECTIONS',
  'MAX_USERS',
  'MAX_TRACED_PRODUCTS',
  'BULK_UPLOAD_ROWS_MONTH',
] as const;
/** A resource-limit key. */
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** Request ceilings of the API (integration traffic), per UTC day and per UTC minute. */
export const RATE_LIMIT_KEYS = ['API_REQUESTS_DAY', 'API_REQUESTS_MINUTE'] as const;
/** A rate-limit key. */
export type RateLimitKey = (typeof RATE_LIMIT_KEYS)[number];

/**
 * The actions `can` and reservations understand. BULK_UPLOAD is the spec's; the others are
 * ours, one per resource limit, so that every limit can be checked before it is spent.
 */
export const CAN_ACTION_NAMES = [
  'BULK_UPLOAD',
  'CREATE_PRODUCT',
  'CREATE_CONNECTION',
  'INVITE_USER',
  'TRACE_PRODUCT',
] as const;
/** A `can` action name. */
export type CanActionName = (typeof CAN_ACTION_NAMES)[number];

/** The spec's `frictionType` of the upgrade context: what kind of key stands in the way. */
export const FRICTION_TYPES = ['CAPABILITY', 'LIMIT', 'RATE_LIMIT'] as const;
export type FrictionType = (typeof FRICTION_TYPES)[number];

/** A usage warning: at 80 % of a ceiling, or at it. */
export const USAGE_WARNING_LEVELS = ['APPROACHING', 'REACHED'] as const;
export type UsageWarningLevel = (typeof USAGE_WARNING_LEVELS)[number];

/** Why `can` says no. */
export const CAN_REFUSAL_REASONS = ['LIMIT_EXCEEDED', 'CAPABILITY_NOT_IN_TIER'] as const;
export type CanRefusalReason = (typeof CAN_REFUSAL_REASONS)[number];
