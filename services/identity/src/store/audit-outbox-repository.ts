import type { Collection, Db } from 'mongodb';
import type { DomainEvent } from '@tap/contracts';
import type { AuditOutboxRepository } from '../operations/ports/audit-outbox-repository.js';

/** One row per audit entry not yet confirmed by the stream (`_id` = event id). */
export const AUDIT_OUTBOX_COLLECTION = 'audit_outbox';

interface AuditOutboxDocument {
  _id: string;
  event: DomainEvent;
  createdAt: Date;
}

export function auditOutboxRepository(db: Db): AuditOutboxRepository {
  const rows: Collection<AuditOutboxDocument> = db.collection(AUDIT_OUTBOX_COLLECTION);
  return {
    async ensureIndexes() {
      await rows.createIndex({ createdAt: 1 }, { name: 'created' });
    },
    async add(event, now) {
      await rows.insertOne({ _id: event.id, event, createdAt: now });
    },
    async pending(limit) {
      const docs = await rows.find({}).sort({ createdAt: 1 }).limit(limit).toArray();
      return docs.map((doc) => doc.event);
    },
    async remove(eventId) {
      await rows.deleteOne({ _id: eventId });
    },
  };
}
