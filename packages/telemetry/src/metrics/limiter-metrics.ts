import { countLimiterDecision, type LimiterOutcome } from './series.js';

/** The part of a rate-limiter decision that is counted (structurally @tap/ratelimit's). */
export interface CountedDecision {
  readonly allowed: boolean;
  readonly policy: string;
  readonly source: 'redis' | 'fallback';
}

/** `fallback` when a fallback policy decided, else `allowed` or `refused`. */
export function limiterOutcome(decision: CountedDecision): LimiterOutcome {
  if (decision.source === 'fallback') return 'fallback';
  return decision.allowed ? 'allowed' : 'refused';
}

/**
 * A limiter that counts each `consume` decision in `ratelimit_decisions_total{policy,outcome}`
 * (the binding rule's name). `peek` charges nothing and is not counted.
 */
export function countLimiterDecisions<L extends { consume(...args: never[]): Promise<CountedDecision> }>(
  limiter: L,
): L {
  const consume = limiter.consume.bind(limiter) as (...args: unknown[]) => Promise<CountedDecision>;
  const counted = Object.create(limiter) as L;
  (counted as unknown as { consume: (...args: unknown[]) => Promise<CountedDecision> }).consume = async (
    ...args
  ) => {
    const decision = await consume(...args);
    countLimiterDecision(decision.policy, limiterOutcome(decision));
    return decision;
  };
  return counted;
}
