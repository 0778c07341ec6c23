import type { Collection, Db } from 'mongodb';
import { EMPTY_SUMMARY, foldFacts } from '../domain/index.js';
import { AGGREGATES_COLLECTION, type AggregateDocument } from './aggregate-document.js';
import { rawEventsRepository } from './raw-events-repository.js';
import { counterIs } from './write-helpers.js';

/** What a start-up migration did. */
export interface MigrationReport {
  readonly migrated: number;
  /** Documents another writer changed while they were migrated; the next start takes them. */
  readonly skipped: number;
}

/**
 * Start-up migration from the embedded fact array to the summary: each aggregate that still
 * has `facts` gets them folded into `summary`, copied to the raw event log, and the array
 * removed, in one update conditional on the version read (a concurrent writer wins; the
 * document then reads correctly anyway, toAggregate summarises on the fly, and the next start
 * migrates it). Idempotent: a migrated document has no `facts` and is not looked at again.
 */
export async function migrateFactArrays(db: Db, now: Date): Promise<MigrationReport> {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  const raw = rawEventsRepository(db);
  let migrated = 0;
  let skipped = 0;
  for await (const doc of aggregates.find({ facts: { $exists: true } })) {
    const facts = doc.facts ?? [];
    await raw.append(doc._id, facts, now);
    const ids = facts.map((f) => f.id);
    const result = await aggregates.updateOne(
      { _id: doc._id, version: counterIs(doc.version ?? 0) },
      {
        $set: {
          summary: foldFacts(EMPTY_SUMMARY, facts, now),
          recentEventIds: ids.slice(-1_000),
          lastSeq: doc.lastSeq ?? 0,
        },
        $unset: { facts: '' },
      },
    );
    if (result.matchedCount === 1) migrated += 1;
    else skipped += 1;
  }
  return { migrated, skipped };
}
