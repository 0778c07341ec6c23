import type { Db } from 'mongodb';
import { DRIFT_SCHEDULE_COLLECTION } from './drift-repository.js';
import { OUTBOX_DUE_COLLECTION } from './outbox-repository.js';

/**
 * Indexes the adoption store relies on (idempotent; run at start-up). The due queries of the
 * drift watch and the outbox relay use them on MongoDB; FerretDB v1 scans, which the small
 * schedule and reminder documents keep cheap (the relay never queries the aggregates).
 */
export async function ensureAdoptionIndexes(db: Db): Promise<void> {
  await db.collection(DRIFT_SCHEDULE_COLLECTION).createIndex({ dueAt: 1 }, { name: 'due_at' });
  await db.collection(OUTBOX_DUE_COLLECTION).createIndex({ dueAt: 1 }, { name: 'due_at' });
}
