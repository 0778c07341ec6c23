import type { Collection, Db } from 'mongodb';
import { slotFactCount } from '../domain/index.js';
import { AGGREGATES_COLLECTION, storedSummary, type AggregateDocument } from './aggregate-document.js';
import type { MigrationReport } from './migrate-fact-arrays.js';
import { INLINE_SLOT_FACTS } from './summary-layout.js';
import type { SummaryPartsRepository } from './summary-parts-repository.js';
import { counterIs } from './write-helpers.js';

/**
 * Start-up migration to the layered summary (docs/adoption-model.md §17): every aggregate
 * without `summaryParts` whose inline summary is larger than INLINE_SLOT_FACTS gets its slots
 * moved to one base part; a small one is only marked (`summaryParts: []`). One update each,
 * conditional on the version read: a concurrent writer wins (its own write moves the slots the
 * same way) and the part inserted for the lost update is deleted. Idempotent. Until migrated, a
 * document reads the same: all its slots are its inline layer.
 */
export async function migrateInlineSummaries(
  db: Db,
  parts: SummaryPartsRepository,
  now: Date,
): Promise<MigrationReport> {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  let migrated = 0;
  let skipped = 0;
  for await (const doc of aggregates.find({ summaryParts: { $exists: false }, facts: { $exists: false } })) {
    const slots = storedSummary(doc.summary)?.slots ?? [];
    const large = slotFactCount(slots) > INLINE_SLOT_FACTS;
    const part = large ? await parts.insert(doc._id, slots, now) : null;
    const result = await aggregates.updateOne(
      { _id: doc._id, version: counterIs(doc.version ?? 0), summaryParts: { $exists: false } },
      part === null
        ? { $set: { summaryParts: [] } }
        : { $set: { 'summary.slots': [], summaryParts: [part] } },
    );
    if (result.matchedCount === 1) {
      if (part !== null) migrated += 1;
      continue;
    }
    skipped += 1;
    if (part !== null) await parts.remove([part]);
  }
  return { migrated, skipped };
}
