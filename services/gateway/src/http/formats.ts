/**
 * The string formats the gateway's schemas use beyond JSON Schema's own, registered with its
 * validator (app.ts) and named in the OpenAPI document, so a caller (and a fuzzer) can read the
 * rule the services apply.
 */

/** `future-date-time`: an RFC 3339 date-time with its zone (`Z` or `±hh:mm`), later than now. */
export const FUTURE_DATE_TIME = 'future-date-time';

// Seconds required and the zone explicit, as RFC 3339 has it: a local time would be read in the
// server's zone. The adoption service's parser takes these (and more), so nothing valid here is
// refused there for its shape.
const ZONED_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Milliseconds since the epoch of a zoned RFC 3339 date-time, or null (impossible days too). */
export function parseZonedDateTime(text: string): number | null {
  const match = ZONED_DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const probe = new Date(Date.UTC(year, month - 1, day));
  probe.setUTCFullYear(year);
  const realDay =
    probe.getUTCFullYear() === year && probe.getUTCMonth() + 1 === month && probe.getUTCDate() === day;
  if (!realDay || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** True for a zoned date-time later than `now` (ms since the epoch). */
export function isFutureDateTime(text: string, now: number = Date.now()): boolean {
  const ms = parseZonedDateTime(text);
  return ms !== null && ms > now;
}

/** The formats as Ajv's `formats` option takes them. */
export const GATEWAY_FORMATS = {
  [FUTURE_DATE_TIME]: { type: 'string', validate: (text: string) => isFutureDateTime(text) },
} as const;
