/**
 * Methods whose repetition cannot do twice what once would (RFC 9110 §9.2.2). Only these are
 * resent after a 429 by default; a POST may have been counted by the time its 429 was decided
 * elsewhere, and the spec marks no POST safe to repeat.
 */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}
