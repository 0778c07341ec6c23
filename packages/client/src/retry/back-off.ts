/** The spec's back-off: `Retry-After` when the answer has one, else a doubling delay from 1 s. */
export interface BackOffOptions {
  /** Retries after the first attempt; 0 turns back-off off. Default {@link DEFAULT_MAX_RETRIES}. */
  readonly maxRetries?: number;
  /** First delay without Retry-After, in ms. Default {@link DEFAULT_INITIAL_DELAY_MS}. */
  readonly initialDelayMs?: number;
  /**
   * Longest wait, in ms. A Retry-After beyond it is not waited for: the 429 goes back to the
   * caller at once (waiting less than the server asked only earns another 429).
   */
  readonly maxDelayMs?: number;
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_INITIAL_DELAY_MS = 1_000;
export const DEFAULT_MAX_DELAY_MS = 30_000;

/**
 * `Retry-After` in ms: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent
 * or unreadable. A date in the past is 0.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  // An HTTP-date names its weekday; bare numbers such as "-3" are not dates here.
  const at = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * How long to wait before retry number `retry` (1-based), or undefined when the caller should get
 * the answer instead (retries used up, or the server asks for longer than `maxDelayMs`).
 */
export function backOffDelayMs(
  retry: number,
  retryAfterHeader: string | null,
  now: number,
  options: BackOffOptions = {},
): number | undefined {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  if (retry > maxRetries) return undefined;
  const asked = retryAfterMs(retryAfterHeader, now);
  if (asked !== undefined) return asked <= maxDelayMs ? asked : undefined;
  const initial = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  return Math.min(maxDelayMs, initial * 2 ** (retry - 1));
}
