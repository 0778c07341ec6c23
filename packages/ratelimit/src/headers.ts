import type { RateLimitDecision } from './decision.js';

/** The rate-limit headers of a response, by name; `Retry-After` only on a refusal. */
export interface RateLimitHeaders {
  readonly 'X-RateLimit-Limit': string;
  readonly 'X-RateLimit-Remaining': string;
  /** Unix seconds (not a delta), rounded up so that a client waiting until then is never early. */
  readonly 'X-RateLimit-Reset': string;
  /** The binding rule's name. */
  readonly 'X-RateLimit-Policy': string;
  /** Whole seconds, >= 1. */
  readonly 'Retry-After'?: string;
}

/** Epoch ms to the Unix seconds of `X-RateLimit-Reset`, rounded up. */
export function resetSeconds(resetAtMs: number): number {
  return Math.ceil(resetAtMs / 1_000);
}

/**
 * Header values for a decision, about its binding window. Pure: the caller (the gateway) sets
 * them on its response; this package imports no HTTP framework.
 */
export function rateLimitHeaders(decision: RateLimitDecision): RateLimitHeaders {
  const headers = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(resetSeconds(decision.resetAt)),
    'X-RateLimit-Policy': decision.policy,
  };
  return decision.allowed ? headers : { ...headers, 'Retry-After': String(decision.retryAfter) };
}
