import { rateLimitHeaders, type RateLimitDecision } from '@tap/ratelimit';
import type { FastifyReply } from 'fastify';
import { OAuthRequestError } from '../errors/oauth-request-error.js';

/** Sets the X-RateLimit-* headers of `decision` on the reply, allowed or not. */
export function setLimitHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) void reply.header(name, value);
}

/**
 * The spec's `429 rate_limit_exceeded` with Retry-After, for a refused `decision`; `what` names
 * what was counted ("login attempts from this address"). The route's error style turns it into
 * its body (OAuth-style or `{ success: false, error }`).
 */
export function limitExceeded(decision: RateLimitDecision, what: string): OAuthRequestError {
  return new OAuthRequestError('rate_limit_exceeded', `Too many ${what}; retry in ${decision.retryAfter} s`, {
    'retry-after': String(decision.retryAfter),
  });
}
