import type { Collection, Db } from 'mongodb';
import type { AppliedEventsRepository } from './applied-events-repository.js';
import type { UsageDocument } from './usage-document.js';

/** Documents migrated per page. */
const PAGE = 100;

/** What a start-up migration did. */
export interface UsageMigrationReport {
  /** Documents whose `appliedEvents` map moved to `applied_events`. */
  readonly movedDocuments: number;
  readonly movedEventIds: number;
  /** Documents given `lastSeq` / `version` (written before batching). */
  readonly fencedDocuments: number;
}

/**
 * Brings usage documents written before the batched counter to its shape, at start-up, before
 * the consumer starts. Idempotent and safe to run on several replicas at once:
 * 1. the `appliedEvents.<eventId>` map (it grew with the tenant's history) is copied into
 *    `applied_events` (duplicates ignored) and only then removed, so a copy of an old event
 *    still counts nothing, even if the process dies in between;
 * 2. a document without `lastSeq` / `version` gets 0 for each: every event still in the stream
 *    was either acked (never delivered again) or is caught by its applied-event record.
 */
export async function migrateUsageDocuments(
  db: Db,
  applied: AppliedEventsRepository,
): Promise<UsageMigrationReport> {
  const usage: Collection<UsageDocument> = db.collection('usage');
  let movedDocuments = 0;
  let movedEventIds = 0;
  for (;;) {
    const page = await usage
      .find({ appliedEvents: { $exists: true } }, { projection: { appliedEvents: 1 } })
      .limit(PAGE)
      .toArray();
    if (page.length === 0) break;
    for (const doc of page) {
      const entries = Object.entries(doc.appliedEvents ?? {});
      // Grouped by the time each was applied, so retention still counts from then.
      const byTime = new Map<string, string[]>();
      for (const [eventId, at] of entries) byTime.set(at, [...(byTime.get(at) ?? []), eventId]);
      for (const [at, ids] of byTime) {
        const when = new Date(at);
        await applied.markApplied(doc._id, ids, Number.isNaN(when.getTime()) ? new Date(0) : when);
      }
      await usage.updateOne({ _id: doc._id }, { $unset: { appliedEvents: '' } });
      movedDocuments += 1;
      movedEventIds += entries.length;
    }
  }
  const lastSeq = await usage.updateMany({ lastSeq: { $exists: false } }, { $set: { lastSeq: 0 } });
  await usage.updateMany({ version: { $exists: false } }, { $set: { version: 0 } });
  return { movedDocuments, movedEventIds, fencedDocuments: lastSeq.modifiedCount };
}
