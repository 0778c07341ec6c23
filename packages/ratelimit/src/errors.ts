/**
 * Codes of the errors this package throws. They are programming or configuration mistakes
 * (a bad rule, a bad cost), never a user's doing and never a Redis outage: an outage is a
 * value on the decision (`source: 'fallback'`), handled by each rule's `onRedisDown` policy.
 */
export const RATE_LIMIT_ERROR_CODES = [
  'RATE_LIMIT_INVALID_RULE',
  'RATE_LIMIT_INVALID_RULES',
  'RATE_LIMIT_INVALID_COST',
  'RATE_LIMIT_INVALID_SUBJECT',
  'RATE_LIMIT_INVALID_OPTIONS',
] as const;

export type RateLimitErrorCode = (typeof RATE_LIMIT_ERROR_CODES)[number];

/**
 * Thrown (as a rejected promise from `consume`) for invalid input. It is deliberately not a
 * `DomainError`: the caller's edge must not map it to a 4xx, since no request can cause it.
 * Branch on `code`, never on `message`.
 */
export class RateLimitConfigError extends TypeError {
  override readonly name = 'RateLimitConfigError';
  readonly code: RateLimitErrorCode;

  constructor(code: RateLimitErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
