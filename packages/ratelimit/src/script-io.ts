import type { WindowState } from './decision.js';
import type { ResolvedRule } from './rules.js';

const FIELDS_PER_WINDOW = 4;

/** The script's ARGV for one check (see `script.ts`). */
export function scriptArgs(
  rules: readonly ResolvedRule[],
  cost: number,
  charge: boolean,
): (string | number)[] {
  return [
    cost,
    charge ? '1' : '0',
    ...rules.flatMap((rule) => [rule.limit, rule.subWindowMs, rule.subWindows]),
  ];
}

/**
 * Reads the script's flat integer reply into Redis's time and one state per rule. Returns
 * `undefined` for any other shape, which only a foreign script under our SHA or a broken proxy
 * could produce; the caller then treats Redis as failed.
 */
export function readScriptReply(
  reply: unknown,
  rules: readonly ResolvedRule[],
): { now: number; windows: WindowState[] } | undefined {
  if (!Array.isArray(reply) || reply.length !== 2 + FIELDS_PER_WINDOW * rules.length) return undefined;
  const numbers: unknown[] = reply;
  if (!numbers.every((value): value is number => typeof value === 'number' && Number.isSafeInteger(value))) {
    return undefined;
  }
  const now = numbers[1] ?? 0;
  const windows = rules.map((rule, i): WindowState => {
    const offset = 2 + FIELDS_PER_WINDOW * i;
    const [fits = 0, used = 0, resetAt = now, retryAt = -1] = numbers.slice(
      offset,
      offset + FIELDS_PER_WINDOW,
    );
    return {
      policy: rule.name,
      limit: rule.limit,
      windowMs: rule.windowMs,
      used,
      remaining: Math.max(0, rule.limit - used),
      resetAt,
      fits: fits === 1,
      retryAt: retryAt < 0 ? null : retryAt,
      source: 'redis',
    };
  });
  return { now, windows };
}
