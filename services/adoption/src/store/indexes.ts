import type { Db } from 'mongodb';
import { DRIFT_SCHEDULE_COLLECTION } from './drift-repository.js';
import { OUTBOX_DUE_COLLECTION } from './outbox-repository.js';
import { RAW_EVENTS_COLLECTION } from './raw-events-repository.js';

/**
 * Indexes the adoption store relies on (idempotent; run at start-up). The due queries of the
 * drift watch and the outbox relay use them on MongoDB; FerretDB v1 scans, which the small
 * schedule and reminder documents keep cheap (the relay never queries the aggregates).
 */
export async function ensureAdoptionIndexes(db: Db, rawEventRetentionMs: number): Promise<void> {
  await db.collection(DRIFT_SCHEDULE_COLLECTION).createIndex({ dueAt: 1 }, { name: 'due_at' });
  await db.collection(OUTBOX_DUE_COLLECTION).createIndex({ dueAt: 1 }, { name: 'due_at' });
  const events = db.collection(RAW_EVENTS_COLLECTION);
  await events.createIndex({ tenantId: 1, ids: 1 }, { name: 'tenant_ids' });
  // Retention: a TTL index where the server has them (MongoDB). FerretDB v1 refuses the option
  // ("expireAfterSeconds is not implemented yet"); there the hourly housekeeping pass prunes
  // instead (rawEvents.pruneBefore), which MongoDB also runs, harmlessly.
  try {
    await events.createIndex(
      { receivedAt: 1 },
      { name: 'received_at_ttl', expireAfterSeconds: Math.ceil(rawEventRetentionMs / 1000) },
    );
  } catch (error) {
    if (!/expireAfterSeconds/i.test((error as Error).message)) throw error;
    await events.createIndex({ receivedAt: 1 }, { name: 'received_at' });
  }
}
