import type { LimitRule, RateLimitDecision, RateLimiter } from '@tap/ratelimit';
import type { FastifyRequest } from 'fastify';

const decisions = new WeakMap<FastifyRequest, RateLimitDecision[]>();

/**
 * Charges `rules` to `subject` on behalf of `request`, the one way the gateway spends a limit.
 * The decision is kept with the request, and the metrics plugin's onResponse hook counts it
 * (`ratelimit_decisions_total{policy,outcome}`) once the answer is sent: nothing wraps the limiter.
 */
export async function consumeLimit(
  request: FastifyRequest,
  limiter: RateLimiter,
  subject: string,
  rules: readonly LimitRule[],
): Promise<RateLimitDecision> {
  const decision = await limiter.consume(subject, rules);
  const taken = decisions.get(request);
  if (taken) taken.push(decision);
  else decisions.set(request, [decision]);
  return decision;
}

/** The decisions charged while answering `request`, in order. */
export function limitDecisionsOf(request: FastifyRequest): readonly RateLimitDecision[] {
  return decisions.get(request) ?? [];
}
