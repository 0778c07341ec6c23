import type { Collection, Db, PushOperator } from 'mongodb';
import type { EventFact, ManualCompletion, TenantSummary } from '../domain/index.js';
import type { TenantAggregate as ReadAggregate } from '../operations/ports.js';
import {
  AGGREGATES_COLLECTION,
  derivedFields,
  emptyAggregate,
  packIds,
  packSummary,
  toAggregate,
  type AggregateDocument,
  type DerivedRecord,
  type TenantAggregate,
  type TierSnapshot,
} from './aggregate-document.js';
import { afterFactsWrite, type LastWrittenAggregates } from './last-written-aggregates.js';
import { planSummaryWrite } from './summary-layout.js';
import {
  summaryPartsRepository,
  type SummaryPartRef,
  type SummaryPartsRepository,
} from './summary-parts-repository.js';
import type { TenantWriteLock } from './tenant-write-lock.js';
import { counterIs, insertDefaults, isDuplicateKey } from './write-helpers.js';

/** What applying a tenant's events changes: the folded summary and the duplicate guards. */
export interface FactsChange {
  readonly summary: TenantSummary;
  readonly recentEventIds: readonly string[];
  readonly lastSeq: number;
  /** The facts the folded summary keeps (`summaryFacts(summary)`, computed once by the caller). */
  readonly keptFacts: readonly EventFact[];
  /**
   * The aggregate the summary was folded from: only the slots that changed since are written, and
   * the write is fenced on its `driftRevision` too (a drift-watch record since then changed the
   * ledger this write would overwrite).
   */
  readonly read: ReadAggregate;
  /**
   * Event-detected completions this change stores for the first time (with their ids in the
   * outbox, in the same update); the version guard makes each one stored once.
   */
  readonly completions: readonly ManualCompletion[];
  /** The tier a `tier.changed` set (absent: the stored tier stays). */
  readonly tier?: TierSnapshot;
}

export interface AggregatesRepository {
  /** The tenant's aggregate; an empty one (version 0) when nothing was written yet. */
  load(tenantId: string): Promise<TenantAggregate>;
  /**
   * The aggregate as this repository's last `applyFacts` left it, when it remembers it
   * (last-written-aggregates.ts), else `load`. For the event consumer, whose next write is fenced.
   */
  loadForFacts(tenantId: string): Promise<TenantAggregate>;
  /**
   * Stores the summary with any number of events folded in, and its recompute, if the aggregate
   * is still at `expectedVersion` and the drift ledger at `change.read.driftRevision`; false when
   * another write got there first (read again, fold again, retry). One single-document update,
   * whatever the number of events.
   */
  applyFacts(
    tenantId: string,
    change: FactsChange,
    expectedVersion: number,
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
  /**
   * Appends a manual completion and its recompute if the aggregate is still at `expectedVersion`,
   * and in the same update puts the completion in the outbox: its event is still to be published.
   */
  recordCompletion(
    tenantId: string,
    completion: ManualCompletion,
    expectedVersion: number,
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
  /**
   * Stores a manual completion whatever the version, unless the milestone already has one:
   * for a caller that sent no `expectedVersion`, so the event consumer's writes can never make
   * it fail. It leaves the recompute's derived fields to the next write or drift pass (the
   * consumer's next write recomputes with the completion in). Puts it in the outbox in the same update.
   */
  recordCompletionOnce(
    tenantId: string,
    completion: ManualCompletion,
    now: Date,
  ): Promise<'recorded' | 'already-done'>;
}

/** Reads of a document and its parts before a part that stays missing is an error. */
const MAX_LOAD_ATTEMPTS = 5;

/**
 * The per-tenant aggregate documents (see AggregateDocument for the layout and its counters).
 * Every update runs under `lock`, shared with the drift repository of the same process.
 */
export function aggregatesRepository(
  db: Db,
  lock: TenantWriteLock,
  parts: SummaryPartsRepository = summaryPartsRepository(db),
  /** The consumer's memory of its own writes (none: `loadForFacts` always reads). */
  lastWritten?: LastWrittenAggregates,
): AggregatesRepository {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);

  // One conditional update: the version guard makes read-recompute-write a compare-and-set, and
  // version 0 may also create the document (an upsert that loses to a creator raises 11000).
  // `driftRevision`, when given, fences the write on the drift ledger as read, too.
  const writeAtVersion = async (
    tenantId: string,
    expectedVersion: number,
    change: { $set: Partial<AggregateDocument>; $push?: PushOperator<AggregateDocument> },
    derived: DerivedRecord,
    now: Date,
    driftRevision?: number,
  ): Promise<boolean> => {
    const touched = [
      ...(Object.keys(change.$set) as (keyof AggregateDocument)[]),
      ...(Object.keys(change.$push ?? {}) as (keyof AggregateDocument)[]),
    ];
    return lock.run(tenantId, async () => {
      try {
        const result = await aggregates.updateOne(
          {
            _id: tenantId,
            version: counterIs(expectedVersion),
            ...(driftRevision === undefined ? {} : { driftRevision: counterIs(driftRevision) }),
          },
          {
            ...(change.$push ? { $push: change.$push } : {}),
            $inc: { version: 1, driftRevision: 1 },
            $set: { ...change.$set, ...derivedFields(derived), updatedAt: now },
            $setOnInsert: insertDefaults(now, [
              ...touched,
              'version',
              'driftRevision',
              'lastBand',
              'signals',
              'scheduledCheck',
              'updatedAt',
            ]),
          },
          // A document at version 0 with a moved drift ledger exists: nothing to create.
          { upsert: expectedVersion === 0 && (driftRevision ?? 0) === 0 },
        );
        return result.matchedCount + result.upsertedCount === 1;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    });
  };

  const load = async (tenantId: string): Promise<TenantAggregate> => {
    for (let attempt = 1; ; attempt += 1) {
      const doc = await aggregates.findOne({ _id: tenantId });
      if (doc === null) return toAggregate({ _id: tenantId, ...emptyAggregate(new Date(0)) });
      const slots = await parts.read(tenantId, doc.summaryParts ?? []);
      if (slots !== null) return toAggregate(doc, slots);
      // A rebase replaced a part between the two reads: the document now names the new one.
      if (attempt >= MAX_LOAD_ATTEMPTS) throw new Error(`summary parts of tenant ${tenantId} are missing`);
    }
  };
  // Any other write of the tenant by this process makes the remembered aggregate stale.
  const forget = (tenantId: string): void => lastWritten?.forget(tenantId);

  return {
    load,
    loadForFacts: async (tenantId) => lastWritten?.get(tenantId) ?? load(tenantId),
    // The slots the group changed go inline, or into a new part once the inline layer is too
    // large (summary-layout.ts): the document written stays small however large the summary.
    // A part is inserted before the conditional update that refers to it; a lost update leaves
    // it unreferenced and it is deleted, a crash in between leaves it as harmless garbage.
    async applyFacts(tenantId, change, expectedVersion, derived, now) {
      const stored = change.read.summaryStorage;
      const plan = planSummaryWrite(stored, change.read.summary, change.summary, now.getTime());
      const added: SummaryPartRef | null =
        plan.kind === 'inline' ? null : await parts.insert(tenantId, plan.part, now);
      const refs =
        added === null ? [...stored.parts] : plan.kind === 'delta' ? [...stored.parts, added] : [added];
      const inline = plan.kind === 'inline' ? [...plan.inline] : [];
      let wrote = false;
      try {
        wrote = await writeAtVersion(
          tenantId,
          expectedVersion,
          {
            $set: {
              summary: packSummary({ ...change.summary, slots: inline }),
              summaryParts: refs,
              recentEventIds: packIds(change.recentEventIds),
              lastSeq: change.lastSeq,
              ...(change.tier
                ? { tier: { ...change.tier, capabilities: [...change.tier.capabilities] } }
                : {}),
            },
            ...(change.completions.length === 0
              ? {}
              : {
                  $push: {
                    detectedCompletions: { $each: [...change.completions] },
                    outbox: { $each: change.completions.map((c) => c.id) },
                  } as PushOperator<AggregateDocument>,
                }),
          },
          derived,
          now,
          change.read.driftRevision,
        );
      } finally {
        // Written: the next group of the tenant starts from what is now stored. Lost or unknown
        // (an error may come after the write landed): read the document next time.
        if (wrote && lastWritten && change.read.version === expectedVersion)
          lastWritten.set(tenantId, afterFactsWrite(change, { parts: refs, inline }, derived));
        else forget(tenantId);
      }
      // Parts no document refers to any more go in the background, off the consumer's path
      // (FerretDB scans for a delete); failing to delete them costs only space.
      const unreferenced =
        !wrote && added !== null ? [added] : wrote && plan.kind === 'rebase' ? stored.parts : [];
      if (unreferenced.length > 0) parts.discard(unreferenced);
      return wrote;
    },
    recordCompletion: (tenantId, completion, expectedVersion, derived, now) => {
      forget(tenantId);
      return writeAtVersion(
        tenantId,
        expectedVersion,
        {
          $set: {},
          $push: { manualCompletions: completion, outbox: completion.id } as PushOperator<AggregateDocument>,
        },
        derived,
        now,
      );
    },
    recordCompletionOnce: (tenantId, completion, now) =>
      lock.run(tenantId, async () => {
        forget(tenantId);
        try {
          const result = await aggregates.updateOne(
            { _id: tenantId, 'manualCompletions.key': { $ne: completion.key } },
            {
              $push: {
                manualCompletions: completion,
                outbox: completion.id,
              } as PushOperator<AggregateDocument>,
              $inc: { version: 1 },
              $set: { updatedAt: now },
              $setOnInsert: insertDefaults(now, ['manualCompletions', 'outbox', 'version', 'updatedAt']),
            },
            { upsert: true },
          );
          return result.matchedCount + result.upsertedCount === 1 ? 'recorded' : 'already-done';
        } catch (error) {
          // The upsert found the document, with this milestone already completed.
          if (isDuplicateKey(error)) return 'already-done';
          throw error;
        }
      }),
  };
}
