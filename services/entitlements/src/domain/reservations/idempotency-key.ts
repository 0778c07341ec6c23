import { entitlementErrors } from '../errors.js';

/*
 * The key becomes a field name inside the tenant's usage document (one document per tenant,
 * so that reserve is one conditional update); hence no dots, no "$", and a bounded length.
 */
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

/** True for a well-formed idempotency key (a UUID always is). */
export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}

/** Throws INVALID_IDEMPOTENCY_KEY unless `value` is a well-formed key. */
export function assertIdempotencyKey(value: unknown): asserts value is string {
  if (!isIdempotencyKey(value)) {
    throw entitlementErrors.create('INVALID_IDEMPOTENCY_KEY');
  }
}
