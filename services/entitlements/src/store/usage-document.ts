import type { LimitKey } from '../domain/index.js';
import type { CounterFields, UsageRecord } from '../operations/ports/usage-repository.js';

/**
 * One document per tenant (`_id` = tenant id) in the `usage` collection. Everything a reserve,
 * a consume or a counted event changes sits in it, so each is one single-document write:
 *
 * - `counters.<LIMIT_KEY>`: the gauges (`{ used, held }`);
 * - `months.<YYYY-MM>.<LIMIT_KEY>`: monthly counters (BULK_UPLOAD_ROWS_MONTH), one per UTC
 *   month, so a new month starts at 0 without a reset job;
 * - `reservations.<idempotencyKey>`: reservations, HELD and finished (kept for replay);
 * - `lastSeq`: the highest stream sequence the batched counter applied (a redelivery at or below
 *   it counts nothing), and the fence of its conditional write;
 * - `version`: bumped by every write; read caches compare it;
 * - `recentEventIds`: ids of the last RECENT_EVENT_IDS_KEPT counted events (copies count nothing);
 * - `appliedEvents.<eventId>`: the shape before batching (an id map that grew with history); the
 *   start-up migration keeps its newest ids in `recentEventIds` and removes it.
 */
export interface UsageDocument extends UsageRecord {
  _id: string;
  lastSeq?: number;
  recentEventIds?: string[];
  createdAt?: Date;
  updatedAt?: Date;
}

/** The dotted path of a counter: gauges under `counters`, monthly ones under their month. */
export function counterPath(counter: LimitKey, period: string | null | undefined): string {
  return period ? `months.${period}.${counter}` : `counters.${counter}`;
}

/** A counter's fields as stored (absent = 0). */
export function readCounter(
  doc: UsageRecord | null,
  counter: LimitKey,
  period: string | null | undefined,
): Required<CounterFields> {
  const fields = period ? doc?.months?.[period]?.[counter] : doc?.counters?.[counter];
  return { used: fields?.used ?? 0, held: fields?.held ?? 0 };
}
