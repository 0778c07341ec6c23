import { defineErrors } from '@tap/errors';

/**
 * Every failure the entitlements domain names. Callers branch on `code`; the gRPC edge maps
 * `kind` to a status. Denials of `can` and of reservations are answers, not errors: the two
 * denial codes are here only for transports that must fail an operation outright.
 */
export const entitlementErrors = defineErrors({
  UNKNOWN_TIER: { kind: 'INVALID_ARGUMENT', message: 'Unknown subscription tier.' },
  INVALID_TENANT_ID: { kind: 'INVALID_ARGUMENT', message: 'The tenant id is not a valid identifier.' },
  UNKNOWN_ACTION: { kind: 'INVALID_ARGUMENT', message: 'Unknown action.' },
  UNKNOWN_CAPABILITY: { kind: 'INVALID_ARGUMENT', message: 'Unknown capability, limit or rate-limit key.' },
  UNKNOWN_FRICTION_TYPE: {
    kind: 'INVALID_ARGUMENT',
    message: 'Friction type must be CAPABILITY, LIMIT or RATE_LIMIT.',
  },
  FRICTION_TYPE_MISMATCH: {
    kind: 'INVALID_ARGUMENT',
    message: 'The friction type does not match the kind of key asked for.',
  },
  INVALID_RESOURCE_COUNT: {
    kind: 'INVALID_ARGUMENT',
    message: 'The resource count must be a non-negative integer.',
  },
  INVALID_USAGE_COUNT: { kind: 'INVALID_ARGUMENT', message: 'A usage count must be a non-negative integer.' },
  INVALID_TIMESTAMP: { kind: 'INVALID_ARGUMENT', message: 'The timestamp is not a valid date.' },
  INVALID_EVENT: { kind: 'INVALID_ARGUMENT', message: 'The product event lacks what its kind requires.' },
  INVALID_IDEMPOTENCY_KEY: {
    kind: 'INVALID_ARGUMENT',
    message:
      'The idempotency key must be 1 to 128 letters, digits, "_", ":" or "-", starting with a letter or digit.',
  },
  INVALID_RESERVATION_TTL: {
    kind: 'INVALID_ARGUMENT',
    message: 'The reservation lifetime must be a whole number of milliseconds between 1 second and 24 hours.',
  },
  INVALID_USER_ID: {
    kind: 'INVALID_ARGUMENT',
    message: 'A user id must be 1 to 128 letters, digits, "_", ":" or "-", starting with a letter or digit.',
  },
  SEAT_CALLER_FORBIDDEN: {
    kind: 'PERMISSION_DENIED',
    message: 'Seats are taken and released only by identity, with a service token of the tenant.',
  },
  INVALID_HISTORY_QUERY: {
    kind: 'INVALID_ARGUMENT',
    message: 'The usage history question is not valid.',
  },
  CONSUME_EXCEEDS_RESERVATION: {
    kind: 'INVALID_ARGUMENT',
    message: 'A reservation cannot consume more units than it holds.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    kind: 'CONFLICT',
    message: 'The idempotency key was already used for a different reservation.',
  },
  RESERVATION_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No reservation with this idempotency key.' },
  RESERVATION_EXPIRED: { kind: 'FAILED_PRECONDITION', message: 'The reservation has expired.' },
  RESERVATION_RELEASED: { kind: 'FAILED_PRECONDITION', message: 'The reservation was already released.' },
  RESERVATION_CONSUMED: { kind: 'FAILED_PRECONDITION', message: 'The reservation was already consumed.' },
  RESERVATION_CONTENDED: {
    kind: 'UNAVAILABLE',
    message: 'The usage counter kept changing while the reservation was attempted; try again.',
  },
  LIMIT_EXCEEDED: {
    kind: 'RESOURCE_EXHAUSTED',
    message: 'The request exceeds a limit of the subscription tier.',
  },
  CAPABILITY_NOT_IN_TIER: {
    kind: 'PERMISSION_DENIED',
    message: 'The subscription tier does not include this capability.',
  },
});

/** Any code of the entitlements error catalogue. */
export type EntitlementErrorCode = Extract<keyof typeof entitlementErrors.catalogue, string>;
