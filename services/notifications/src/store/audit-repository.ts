import { isDuplicateKey } from '@tap/errors';
import { ObjectId, type Collection, type Db, type Filter } from 'mongodb';
import type { AuditEntry } from '../domain/index.js';
import type { AuditRepository } from '../operations/ports.js';

type AuditDocument = Omit<AuditEntry, 'id'> & { _id: ObjectId; entryId: string };

/**
 * The tenant audit log (`audit_entries`): insert and read only; the clean-up job's retention
 * delete is the one removal. A unique index on the entry id keeps a redelivered event once.
 */
export function auditRepository(db: Db): AuditRepository {
  const audit: Collection<AuditDocument> = db.collection('audit_entries');
  const toEntry = ({ _id: _position, entryId, ...rest }: AuditDocument): AuditEntry => ({
    id: entryId,
    ...rest,
  });
  return {
    async append({ id, ...rest }) {
      try {
        await audit.insertOne({ _id: new ObjectId(), entryId: id, ...rest });
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    },
    async page(tenantId, filter, position, limit) {
      const query: Filter<AuditDocument> = {
        tenantId,
        occurredAt: { $gte: filter.from, $lte: filter.to },
        ...(filter.action ? { action: filter.action } : {}),
        ...(filter.actorId ? { 'actor.id': filter.actorId } : {}),
        ...(position ? { _id: { $lt: new ObjectId(position) } } : {}),
      };
      const docs = await audit.find(query).sort({ _id: -1 }).limit(limit).toArray();
      return docs.map((doc) => ({ position: doc._id.toHexString(), entry: toEntry(doc) }));
    },
    async deleteOccurredBefore(cutoff) {
      return (await audit.deleteMany({ occurredAt: { $lt: cutoff } })).deletedCount;
    },
  };
}
