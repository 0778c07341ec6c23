import type { Collection, Db } from 'mongodb';
import type { UsageDocument } from './usage-document.js';

/** Documents migrated per page. */
const PAGE = 100;

/** What a start-up migration did. */
export interface UsageMigrationReport {
  /** Documents whose `appliedEvents` map was folded into `recentEventIds` and removed. */
  readonly movedDocuments: number;
  /** Documents given `lastSeq` / `version` (written before batching). */
  readonly fencedDocuments: number;
}

/**
 * Brings usage documents written before the batched counter to its shape, at start-up, before
 * the consumer starts. Idempotent and safe on several replicas at once (each step is one
 * single-document update conditioned on the old shape):
 * 1. the `appliedEvents.<eventId>` map, which grew with the tenant's history, is replaced by its
 *    `keep` most recently applied ids in `recentEventIds`;
 * 2. a document without `lastSeq` / `version` gets 0: an event still in the stream was either
 *    acked (never delivered again) or is one of the recent ids kept.
 */
export async function migrateUsageDocuments(db: Db, keep: number): Promise<UsageMigrationReport> {
  const usage: Collection<UsageDocument> = db.collection('usage');
  let movedDocuments = 0;
  for (;;) {
    const page = await usage
      .find({ appliedEvents: { $exists: true } }, { projection: { appliedEvents: 1, recentEventIds: 1 } })
      .limit(PAGE)
      .toArray();
    if (page.length === 0) break;
    for (const doc of page) {
      const newest = Object.entries(doc.appliedEvents ?? {})
        .sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([eventId]) => eventId);
      const recent = [...(doc.recentEventIds ?? []), ...newest].slice(-keep);
      await usage.updateOne(
        { _id: doc._id, appliedEvents: { $exists: true } },
        { $set: { recentEventIds: recent }, $unset: { appliedEvents: '' } },
      );
      movedDocuments += 1;
    }
  }
  const fenced = await usage.updateMany({ lastSeq: { $exists: false } }, { $set: { lastSeq: 0 } });
  await usage.updateMany({ version: { $exists: false } }, { $set: { version: 0 } });
  return { movedDocuments, fencedDocuments: fenced.modifiedCount };
}
