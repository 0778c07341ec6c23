import {
  EMPTY_SUMMARY,
  foldFacts,
  overlaySlots,
  summaryFacts,
  type SummarySlot,
  type EventFact,
  type HealthBand,
  type ManualCompletion,
  type MaturityRung,
  type RiskSignal,
  type TenantProjection,
  type TenantSummary,
} from '../domain/index.js';

import type { Binary } from 'mongodb';
import type { DerivedRecord, TenantAggregate, TierSnapshot } from '../ports.js';
import { isPacked, packJson, unpackJson } from './packed-json.js';

export type { DerivedRecord, TenantAggregate, TierSnapshot } from '../ports.js';

/** The collection every adoption aggregate lives in, one document per tenant (`_id` = tenant id). */
export const AGGREGATES_COLLECTION = 'aggregates';

/**
 * One document holds everything a tenant's adoption is computed from and everything derived
 * that must be remembered, so every write is a single-document update (no transactions on
 * FerretDB v1). Two counters make the conditional updates:
 * - `version` moves with what the state is computed from (a fact, a manual completion);
 * - `driftRevision` moves with every write of `signals`, so two drift-watch replicas (or the
 *   watch and the consumer) never both record the same escalation.
 * Success plans live in their own collection (see plans-repository.ts).
 */
export interface AggregateDocument {
  _id: string;
  /**
   * What the rules read of the history (domain/summary): counters, and the slots changed since
   * the last part was written (the inline layer). Raw events live in `events`. Written packed
   * (packed-json.ts: one value instead of hundreds for FerretDB to convert on every update);
   * documents written before hold the structure and read the same.
   */
  summary: TenantSummary | Binary;
  /** The summary's parts in `summary_parts`, oldest first (absent: none, a document from before them). */
  summaryParts?: { id: string; facts: number }[];
  /**
   * ITEM_MARKERS_SCHEMA once the tenant's distinct items are markers (store/migrate-item-slots.ts);
   * absent: written before them, its summary may still hold a slot per item.
   */
  itemMarkers?: number;
  /**
   * The latest applied event ids, newest last (operations/ingest-product-events.ts says how many),
   * written as one JSON string: FerretDB converts and rewrites an array element by element, so a
   * long array costs several times one string to update and to read (docs/adoption-model.md §22).
   * Documents written before hold the array; both read alike.
   */
  recentEventIds: string | string[];
  /** Highest stream sequence applied (0: none, or applied through the per-message path). */
  lastSeq: number;
  /** Before the summary: every fact, embedded. Only start-up migration reads it, then removes it. */
  facts?: EventFact[];
  manualCompletions: ManualCompletion[];
  /**
   * Event-detected milestones stored DONE (absent: none yet, or a document from before them). At
   * most one per catalogue milestone, so bounded; pushed by the event write that completed them,
   * with their ids in `outbox` in the same update.
   */
  detectedCompletions?: ManualCompletion[];
  version: number;
  /** Band of the last recompute-on-write, for the health model's hysteresis. */
  lastBand: HealthBand | null;
  /**
   * Rung of the stored projection, written with it: the baseline the next write compares with
   * for `adoption.rung_changed` (absent: written before it; read from the projection then).
   */
  lastRung?: MaturityRung;
  tier: TierSnapshot | null;
  /** The drift-watch ledger: every signal with the rung it has been moved to. */
  signals: RiskSignal[];
  driftRevision: number;
  /** The due time this document last put in the drift schedule (see drift/next-check.ts). */
  scheduledCheck: Date | null;
  /**
   * The read model (TenantProjection), written packed by every write that recomputes, in the same
   * conditional update as what it was derived from; the reads serve it as stored. Absent until a
   * recomputing write reached the tenant.
   */
  projection?: Binary;
  /**
   * The outbox: ids of completions (manual or detected) whose `milestone.completed` event the stream has not
   * confirmed yet. Pushed by the same update that stores the completion, pulled once it is
   * published (see outbox-repository.ts).
   */
  outbox: string[];
  /**
   * The outbox of outbound events (rung, band, risk-signal moves, audit entries), one JSON string
   * each (pending-events.ts): pushed by the update that made the change, pulled once the domain
   * stream confirmed the event. At most MAX_PENDING_EVENTS (the write checks what it read).
   */
  pendingEvents?: string[];
  updatedAt: Date;
}

/** What `itemMarkers` says of a document whose distinct items are markers. */
export const ITEM_MARKERS_SCHEMA = 1;

/** Fields of a document created on first contact (before any fact). */
export function emptyAggregate(now: Date): Omit<AggregateDocument, '_id' | 'facts'> {
  return {
    summary: EMPTY_SUMMARY,
    recentEventIds: packIds([]),
    lastSeq: 0,
    manualCompletions: [],
    detectedCompletions: [],
    version: 0,
    lastBand: null,
    tier: null,
    signals: [],
    driftRevision: 0,
    scheduledCheck: null,
    outbox: [],
    itemMarkers: ITEM_MARKERS_SCHEMA,
    updatedAt: now,
  };
}

/**
 * The stored document as the read model the service works with; `parts` are the slots of its
 * `summaryParts`, in the same order.
 */
export function toAggregate(
  doc: AggregateDocument,
  parts: readonly (readonly SummarySlot[])[] = [],
): TenantAggregate {
  // A document not migrated yet (written by an older replica during a rolling update) is
  // summarised on the fly, so it reads the same before and after its migration.
  const inline =
    storedSummary(doc.summary) ?? foldFacts(EMPTY_SUMMARY, doc.facts ?? [], doc.updatedAt ?? new Date(0));
  const summary =
    parts.length === 0
      ? inline
      : {
          ...inline,
          slots: overlaySlots([...parts, inline.slots], (doc.updatedAt ?? new Date(0)).getTime()),
        };
  return {
    tenantId: doc._id,
    summary,
    summaryStorage: { parts: doc.summaryParts ?? [], inline: inline.slots },
    facts: summaryFacts(summary),
    appliedEvents: summary.applied,
    recentEventIds: unpackIds(doc.recentEventIds),
    lastSeq: doc.lastSeq ?? 0,
    manualCompletions: doc.manualCompletions ?? [],
    detectedCompletions: doc.detectedCompletions ?? [],
    version: doc.version ?? 0,
    lastBand: doc.lastBand ?? null,
    lastRung: doc.lastRung ?? storedProjection(doc.projection)?.state.currentMaturityRung ?? null,
    tier: doc.tier ?? null,
    signals: doc.signals ?? [],
    driftRevision: doc.driftRevision ?? 0,
    scheduledCheck: doc.scheduledCheck ?? null,
    unpublished: doc.outbox ?? [],
    pendingEvents: doc.pendingEvents?.length ?? 0,
  };
}

/** The inline summary as stored: packed. */
export function packSummary(summary: TenantSummary): Binary {
  return packJson(summary);
}

/** The inline summary, from either stored shape (undefined: a document from before summaries). */
export function storedSummary(stored: TenantSummary | Binary | undefined): TenantSummary | undefined {
  if (stored === undefined) return undefined;
  return isPacked(stored) ? (unpackJson(stored) as TenantSummary) : stored;
}

/** The recent event ids as stored: one string. */
export function packIds(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

/** The recent event ids, from either stored shape; anything unreadable counts as none remembered. */
export function unpackIds(stored: string | string[] | undefined): readonly string[] {
  if (stored === undefined) return [];
  if (Array.isArray(stored)) return stored;
  try {
    const ids: unknown = JSON.parse(stored);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The `$set` part of a write that also records a recompute's derived values. */
export function derivedFields(
  derived: DerivedRecord,
): Pick<AggregateDocument, 'lastBand' | 'lastRung' | 'signals' | 'scheduledCheck' | 'projection'> {
  return {
    lastBand: derived.lastBand,
    lastRung: derived.lastRung,
    signals: [...derived.signals],
    scheduledCheck: derived.scheduledCheck,
    projection: packProjection(derived.projection),
  };
}

/** The projection as stored: packed (read whole, never queried by field). */
export function packProjection(projection: TenantProjection): Binary {
  return packJson(projection);
}

/** The stored projection (undefined: none written yet). */
export function storedProjection(stored: Binary | undefined): TenantProjection | undefined {
  return stored === undefined || !isPacked(stored) ? undefined : (unpackJson(stored) as TenantProjection);
}
