import type { Collection, Db, PushOperator } from 'mongodb';
import type { AggregatesRepository } from '../ports.js';
import { withPendingEvents } from './pending-events.js';
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

export type { AggregatesRepository, FactsChange } from '../ports.js';

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
    const push = withPendingEvents(change.$push, derived.events);
    const touched = [
      ...(Object.keys(change.$set) as (keyof AggregateDocument)[]),
      ...(Object.keys(push ?? {}) as (keyof AggregateDocument)[]),
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
            ...(push ? { $push: push } : {}),
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
        // A write that pushed outbound events is not remembered either: the outbox's size is
        // what the next write bounds its events by, and the relay drains it behind our back.
        if (wrote && lastWritten && change.read.version === expectedVersion && derived.events.length === 0)
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
    recordCompletionOnce: (tenantId, completion, now, events = []) =>
      lock.run(tenantId, async () => {
        forget(tenantId);
        const push: PushOperator<AggregateDocument> = withPendingEvents(
          { manualCompletions: completion, outbox: completion.id } as PushOperator<AggregateDocument>,
          events,
        ) ?? { manualCompletions: completion, outbox: completion.id };
        try {
          const result = await aggregates.updateOne(
            { _id: tenantId, 'manualCompletions.key': { $ne: completion.key } },
            {
              $push: push,
              $inc: { version: 1 },
              $set: { updatedAt: now },
              $setOnInsert: insertDefaults(now, [
                ...(Object.keys(push) as (keyof AggregateDocument)[]),
                'version',
                'updatedAt',
              ]),
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
