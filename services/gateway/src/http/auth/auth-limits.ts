import { createHash } from 'node:crypto';
import type { LimitRule, RateLimiter } from '@tap/ratelimit';
import type { FastifyReply } from 'fastify';
import { limitExceeded, setLimitHeaders } from './limit-answer.js';
import { consumeLimit } from './limit-decisions.js';

const MINUTE_MS = 60_000;

/**
 * The spec's "Limits > Authentication endpoints". When Redis is away each falls back to a
 * per-process count ("local"): brute-force protection must outlive a limiter outage.
 */
export const AUTH_LIMITS = {
  login: {
    rules: [{ name: 'login-per-ip', limit: 10, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'login attempts from this address',
  },
  magicLink: {
    rules: [{ name: 'magic-link-per-ip', limit: 10, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'sign-in links asked for from this address',
  },
  refresh: {
    rules: [{ name: 'refresh-per-token', limit: 30, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'refreshes of this token',
  },
  token: {
    rules: [{ name: 'token-per-client', limit: 60, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'token requests for this client',
  },
} as const satisfies Record<string, { rules: readonly LimitRule[]; what: string }>;

/** One of the three authentication endpoints' limits. */
export type AuthLimit = keyof typeof AUTH_LIMITS;

/** Refresh tokens are secrets and subjects end up in Redis key names: hash them first. */
export function refreshTokenSubject(refreshToken: string): string {
  return `refresh:${createHash('sha256').update(refreshToken, 'utf8').digest('hex')}`;
}

/**
 * Charges one request to `subject` under the endpoint's limit and sets the X-RateLimit-*
 * headers; over the limit it throws the spec's `429 rate_limit_exceeded` with Retry-After.
 */
export async function enforceAuthLimit(
  limiter: RateLimiter,
  limit: AuthLimit,
  subject: string,
  reply: FastifyReply,
): Promise<void> {
  const decision = await consumeLimit(reply.request, limiter, subject, AUTH_LIMITS[limit].rules);
  setLimitHeaders(reply, decision);
  if (!decision.allowed) throw limitExceeded(decision, AUTH_LIMITS[limit].what);
}
