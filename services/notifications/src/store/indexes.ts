import type { Db } from 'mongodb';

/** Every index the service needs (unique ones are what make its writes idempotent). */
export async function ensureIndexes(db: Db): Promise<void> {
  await db.collection('webhook_endpoints').createIndex({ tenantId: 1, createdAt: 1 });
  await db.collection('webhook_deliveries').createIndex({ endpointId: 1, eventId: 1 }, { unique: true });
  await db.collection('webhook_deliveries').createIndex({ status: 1, nextAttemptAt: 1 });
  await db.collection('webhook_deliveries').createIndex({ tenantId: 1, endpointId: 1, createdAt: -1 });
  await db.collection('webhook_attempts').createIndex({ tenantId: 1, deliveryId: 1, attempt: 1 });
  await db.collection('webhook_deliveries').createIndex({ status: 1, updatedAt: 1 });
  await db.collection('webhook_attempts').createIndex({ at: 1 });
  await db.collection('tenant_members').createIndex({ tenantId: 1, role: 1 });
  await db.collection('owner_notices').createIndex({ sentAt: 1, createdAt: 1 });
  await db.collection('feed_events').createIndex({ eventId: 1 }, { unique: true });
  await db.collection('feed_events').createIndex({ tenantId: 1, _id: 1 });
  await db.collection('feed_events').createIndex({ receivedAt: 1 });
  await db.collection('audit_entries').createIndex({ entryId: 1 }, { unique: true });
  await db.collection('audit_entries').createIndex({ tenantId: 1, _id: -1 });
  await db.collection('audit_entries').createIndex({ occurredAt: 1 });
}
