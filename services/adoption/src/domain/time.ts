/** One hour in milliseconds. */
export const HOUR_MS = 3_600_000;
/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

// Date-time with an explicit offset: a bare date or a local time would be read in the
// server's zone and make replays depend on where they run.
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Milliseconds since the epoch for an ISO 8601 timestamp with a zone, or null when the text is
 * not one (including impossible dates such as 2025-02-30, which `Date.parse` would roll over).
 */
export function parseInstant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  // The fold, summaryFacts and the recompute parse the same kept timestamps again and again (a
  // large share of the consumer's CPU on a busy tenant); the answer depends on the text alone,
  // so it is remembered, a bounded number at a time.
  const known = parsed.get(value);
  if (known !== undefined) return known;
  const ms = parseUncached(value);
  if (parsed.size >= PARSED_KEPT) parsed.clear();
  parsed.set(value, ms);
  return ms;
}

/** Timestamps whose parse is remembered; past this the memory starts again. */
const PARSED_KEPT = 50_000;
const parsed = new Map<string, number | null>();

function parseUncached(value: string): number | null {
  const match = ISO_TIMESTAMP.exec(value);
  if (!match) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const probe = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
  const sameDay =
    probe.getUTCFullYear() === year && probe.getUTCMonth() + 1 === month && probe.getUTCDate() === day;
  const inRange = (hour ?? 0) < 24 && (minute ?? 0) < 60 && (second ?? 0) < 60;
  return sameDay && inRange ? ms : null;
}

/** The canonical ISO form (UTC, milliseconds) of an instant. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Exponential decay weight of something `ageMs` old: 1 when fresh, ½ after one half-life.
 * Ages below zero (a producer clock ahead of ours) count as fresh rather than as a bonus.
 */
export function decayWeight(ageMs: number, halfLifeMs: number): number {
  return 2 ** (-Math.max(0, ageMs) / halfLifeMs);
}
