import { RateLimitConfigError } from './errors.js';

/** What a rule does while Redis cannot be reached (timeout, refused connection, script error). */
export type RedisDownPolicy = 'open' | 'closed' | 'local';

/**
 * One limit: at most `limit` units in any `windowMs` long interval, counted in `subWindows`
 * sub-windows of `windowMs / subWindows` ms each. `name` is the policy name reported when the
 * rule binds (for an `X-RateLimit-Policy` header) and part of the Redis key.
 */
export interface LimitRule {
  /** Policy name, e.g. `api-per-minute`: letters, digits, `_ . : -`, at most 64 characters. */
  readonly name: string;
  /** Units allowed per window: an integer >= 0 (0 refuses everything). */
  readonly limit: number;
  /** Window length in ms: a positive integer, a multiple of `subWindows`. */
  readonly windowMs: number;
  /**
   * Sub-windows per window (default {@link DEFAULT_SUB_WINDOWS}, at most {@link MAX_SUB_WINDOWS}).
   * More sub-windows make the enforced window closer to `windowMs` (it is never shorter, and at
   * most `windowMs / subWindows` longer) at the cost of one hash field per sub-window.
   */
  readonly subWindows?: number;
  /** `open` admits, `closed` refuses, `local` counts in this process only. */
  readonly onRedisDown: RedisDownPolicy;
}

/** A rule with its defaults filled in and its geometry checked. */
export interface ResolvedRule {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly subWindows: number;
  /** Length of one sub-window in ms (`windowMs / subWindows`, an integer). */
  readonly subWindowMs: number;
  readonly onRedisDown: RedisDownPolicy;
}

/** Sub-windows per window when a rule does not say: 1 s granularity for a per-minute rule. */
export const DEFAULT_SUB_WINDOWS = 60;
/** Upper bound on sub-windows, which bounds the hash size and the script's work per check. */
export const MAX_SUB_WINDOWS = 1_000;
/** Upper bound on rules per check; each is one key touched by the script. */
export const MAX_RULES_PER_CHECK = 16;
/** Largest limit or cost: keeps every sum in the script an exact integer. */
export const MAX_UNITS = 2 ** 31 - 1;
/** Longest window: one year. */
export const MAX_WINDOW_MS = 366 * 24 * 60 * 60 * 1_000;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const POLICIES: readonly RedisDownPolicy[] = ['open', 'closed', 'local'];

const resolved = new WeakMap<LimitRule, ResolvedRule>();

/**
 * Checks a rule and fills in its defaults. Services call it once when they load their
 * configuration, so a bad rule stops the process at start-up rather than at the first request;
 * `consume` calls it too and remembers rules it has seen, so passing the same objects is free.
 */
export function resolveRule(rule: LimitRule): ResolvedRule {
  const known = resolved.get(rule);
  if (known) return known;
  const problems = ruleProblems(rule);
  if (problems.length > 0) {
    throw new RateLimitConfigError(
      'RATE_LIMIT_INVALID_RULE',
      `rate-limit rule ${JSON.stringify(rule.name)}: ${problems.join('; ')}`,
    );
  }
  const subWindows = rule.subWindows ?? DEFAULT_SUB_WINDOWS;
  const result: ResolvedRule = Object.freeze({
    name: rule.name,
    limit: rule.limit,
    windowMs: rule.windowMs,
    subWindows,
    subWindowMs: rule.windowMs / subWindows,
    onRedisDown: rule.onRedisDown,
  });
  resolved.set(rule, result);
  return result;
}

/** Checks the rules of one check: 1 to 16 rules with distinct names. */
export function resolveRules(rules: readonly LimitRule[]): readonly ResolvedRule[] {
  if (rules.length === 0 || rules.length > MAX_RULES_PER_CHECK) {
    throw new RateLimitConfigError(
      'RATE_LIMIT_INVALID_RULES',
      `a check needs 1 to ${MAX_RULES_PER_CHECK} rules, got ${rules.length}`,
    );
  }
  const result = rules.map(resolveRule);
  const names = new Set(result.map((rule) => rule.name));
  // The name is part of the key: two rules with one name would charge one counter twice.
  if (names.size !== result.length) {
    throw new RateLimitConfigError('RATE_LIMIT_INVALID_RULES', 'rules of one check must have distinct names');
  }
  return result;
}

function ruleProblems(rule: LimitRule): string[] {
  const problems: string[] = [];
  if (typeof rule.name !== 'string' || !NAME_PATTERN.test(rule.name)) {
    problems.push('name must be 1-64 of letters, digits, _ . : - (starting with a letter or digit)');
  }
  if (!isIntegerIn(rule.limit, 0, MAX_UNITS))
    problems.push(`limit must be an integer from 0 to ${MAX_UNITS}`);
  if (!isIntegerIn(rule.windowMs, 1, MAX_WINDOW_MS))
    problems.push(`windowMs must be an integer from 1 to ${MAX_WINDOW_MS}`);
  const subWindows = rule.subWindows ?? DEFAULT_SUB_WINDOWS;
  if (!isIntegerIn(subWindows, 1, MAX_SUB_WINDOWS)) {
    problems.push(`subWindows must be an integer from 1 to ${MAX_SUB_WINDOWS}`);
  } else if (Number.isInteger(rule.windowMs) && rule.windowMs % subWindows !== 0) {
    problems.push(`windowMs (${rule.windowMs}) must be a multiple of subWindows (${subWindows})`);
  }
  if (!POLICIES.includes(rule.onRedisDown))
    problems.push(`onRedisDown must be one of ${POLICIES.join(', ')}`);
  return problems;
}

export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
