import type { DerivedRecord, SummaryStorage, TenantAggregate } from '../ports.js';
import type { FactsChange } from './aggregates-repository.js';

/**
 * Tenants whose last written aggregate the consumer remembers: the busy ones, whose next group
 * follows within the ack wait. A tenant that writes rarely pays one lookup by `_id` instead, so
 * the memory does not grow with the deployment's tenants (each entry holds a projection too).
 */
export const LAST_WRITTEN_TENANTS = 64;
/** And at most this many kept facts over all of them (the summary keeps a bounded few per tenant). */
export const LAST_WRITTEN_FACTS = 20_000;
/**
 * How long a remembered aggregate is used before the document is read again. Every write that
 * matters to the consumer's next write is caught by its fence (`version`, `driftRevision`); the
 * tier snapshot is not (a first read stores it without either), so this bounds how long the
 * consumer may recompute with a tier another replica saved: as long as a read model trusts a
 * lost notice (NOTICED_READ_MODEL_TTL_MS).
 */
export const LAST_WRITTEN_MAX_AGE_MS = 10_000;

/**
 * The event consumer's own last write of each tenant's aggregate, as it now stands in the
 * database, so the tenant's next group folds on it without reading the document (and its parts)
 * again. Safe because that write is fenced on `version` (moved by the consumer and by every
 * completion) and `driftRevision` (moved by the consumer and by every drift-watch record): if
 * anything else wrote the tenant since, the write matches nothing, the entry is forgotten and the
 * document is read. This replica's other writes and the other replicas' notices forget it at once.
 * Bounded: least recently written out first, by tenants and by kept facts.
 */
export interface LastWrittenAggregates {
  get(tenantId: string): TenantAggregate | undefined;
  set(tenantId: string, aggregate: TenantAggregate): void;
  forget(tenantId: string): void;
  /**
   * A write of the tenant was made or announced (the read models' change channel): forgotten
   * unless it names a version this memory already holds or passed (its own write, or an echo of it).
   */
  changed(tenantId: string, version?: number): void;
}

interface Entry {
  readonly aggregate: TenantAggregate;
  readonly at: number;
  readonly facts: number;
}

export function lastWrittenAggregates(
  options: {
    maxTenants?: number;
    maxFacts?: number;
    maxAgeMs?: number;
    clock?: () => number;
  } = {},
): LastWrittenAggregates {
  const maxTenants = options.maxTenants ?? LAST_WRITTEN_TENANTS;
  const maxFacts = options.maxFacts ?? LAST_WRITTEN_FACTS;
  const maxAgeMs = options.maxAgeMs ?? LAST_WRITTEN_MAX_AGE_MS;
  const clock = options.clock ?? (() => performance.now());
  // A Map iterates in insertion order: re-inserting on write keeps the least recent first.
  const entries = new Map<string, Entry>();
  let facts = 0;
  const forget = (tenantId: string): void => {
    const entry = entries.get(tenantId);
    if (!entry) return;
    facts -= entry.facts;
    entries.delete(tenantId);
  };
  return {
    get(tenantId) {
      const entry = entries.get(tenantId);
      if (!entry) return undefined;
      if (clock() - entry.at <= maxAgeMs) return entry.aggregate;
      forget(tenantId);
      return undefined;
    },
    set(tenantId, aggregate) {
      forget(tenantId);
      const entry = {
        aggregate,
        at: clock(),
        facts: aggregate.facts.length + aggregate.recentEventIds.length,
      };
      entries.set(tenantId, entry);
      facts += entry.facts;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxTenants && facts <= maxFacts) break;
        forget(oldest);
      }
    },
    forget,
    changed(tenantId, version) {
      const held = entries.get(tenantId)?.aggregate.version;
      if (held === undefined) return;
      if (version === undefined || version > held) forget(tenantId);
    },
  };
}

/**
 * The aggregate after a facts write at `read.version` matched: what the database now holds,
 * computed instead of read (aggregates-repository.ts writes exactly these fields).
 */
export function afterFactsWrite(
  change: FactsChange,
  storage: SummaryStorage,
  derived: DerivedRecord,
): TenantAggregate {
  const { read } = change;
  return {
    ...read,
    summary: change.summary,
    summaryStorage: storage,
    facts: change.keptFacts,
    appliedEvents: change.summary.applied,
    recentEventIds: change.recentEventIds,
    lastSeq: change.lastSeq,
    detectedCompletions: [...read.detectedCompletions, ...change.completions],
    tier: change.tier ?? read.tier,
    unpublished: [...read.unpublished, ...change.completions.map((c) => c.id)],
    version: read.version + 1,
    driftRevision: read.driftRevision + 1,
    lastBand: derived.lastBand,
    lastRung: derived.lastRung,
    // What the read saw plus what this write pushed; the relay may have drained some since (an
    // over-count only, and a write that pushed events is not remembered: see applyFacts).
    pendingEvents: read.pendingEvents + derived.events.length,
    signals: derived.signals,
    scheduledCheck: derived.scheduledCheck,
  };
}
