import type { Collection, Db } from 'mongodb';
import { AGGREGATES_COLLECTION, type AggregateDocument } from './aggregate-document.js';
import { DRIFT_SCHEDULE_COLLECTION } from './drift-repository.js';

/**
 * Start-up step for documents written before projections: each aggregate without a `projection`
 * is put in the drift schedule as due now, so the drift watch (claims, fences, batches of
 * DRIFT_BATCH_SIZE) stores its projection within a few passes. Until then its reads answer the
 * empty-tenant projection under its stored tier. Idempotent: a scheduled tenant is only due again.
 */
export async function scheduleUnprojected(db: Db, now: Date): Promise<number> {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  const schedule: Collection<{ _id: string; dueAt: Date }> = db.collection(DRIFT_SCHEDULE_COLLECTION);
  let scheduled = 0;
  for await (const doc of aggregates.find({ projection: { $exists: false } }, { projection: { _id: 1 } })) {
    await schedule.updateOne({ _id: doc._id }, { $set: { dueAt: now } }, { upsert: true });
    scheduled += 1;
  }
  return scheduled;
}
