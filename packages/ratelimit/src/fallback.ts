import type { WindowState } from './decision.js';
import type { LocalCounters } from './local-counters.js';
import type { ResolvedRule } from './rules.js';

/**
 * What a `closed` rule tells a refused client to wait: Redis outages are usually short, and a
 * client that honours `Retry-After` should try again soon rather than back off for a window.
 */
export const CLOSED_RETRY_AFTER_MS = 1_000;

/**
 * The windows of a check decided without Redis, each by its rule's `onRedisDown`: `open` fits
 * (and, knowing nothing, reports the full limit), `closed` does not fit, `local` asks this
 * process's counters. All or none still holds: local counters are charged only if every window
 * fits, which a `closed` rule in the same check prevents.
 */
export function fallbackWindows(
  rules: readonly ResolvedRule[],
  keys: readonly string[],
  local: LocalCounters,
  now: number,
  cost: number,
  charge: boolean,
): WindowState[] {
  const localIndexes = rules.flatMap((rule, i) => (rule.onRedisDown === 'local' ? [i] : []));
  const anyClosed = rules.some((rule) => rule.onRedisDown === 'closed');
  const evaluations = local.check(
    localIndexes.map((i) => keys[i] ?? ''),
    localIndexes.map((i) => rules[i] as ResolvedRule),
    now,
    cost,
    charge && !anyClosed,
  );
  return rules.map((rule, i): WindowState => {
    const base = { policy: rule.name, limit: rule.limit, windowMs: rule.windowMs };
    switch (rule.onRedisDown) {
      case 'open':
        return {
          ...base,
          used: 0,
          remaining: rule.limit,
          resetAt: now,
          fits: true,
          retryAt: now,
          source: 'open',
        };
      case 'closed':
        return {
          ...base,
          used: 0,
          remaining: 0,
          resetAt: now + CLOSED_RETRY_AFTER_MS,
          fits: false,
          retryAt: now + CLOSED_RETRY_AFTER_MS,
          source: 'closed',
        };
      case 'local': {
        const evaluation = evaluations[localIndexes.indexOf(i)];
        if (!evaluation) throw new RangeError(`no local evaluation for rule ${rule.name}`);
        return {
          ...base,
          ...evaluation,
          remaining: Math.max(0, rule.limit - evaluation.used),
          source: 'local',
        };
      }
    }
  });
}
