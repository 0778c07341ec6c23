import type { Collection, Db } from 'mongodb';
import type { JoinRequest, JoinRepository } from '../operations/ports/join-repository.js';

interface JoinDomainDocument {
  /** The email domain, lower case. */
  _id: string;
  tenantId: string;
}

interface JoinRequestDocument extends Omit<JoinRequest, 'id'> {
  _id: string;
}

const toRequest = ({ _id, ...rest }: JoinRequestDocument): JoinRequest => ({ id: _id, ...rest });

export function joinRepository(db: Db): JoinRepository {
  const domains: Collection<JoinDomainDocument> = db.collection('join_domains');
  const requests: Collection<JoinRequestDocument> = db.collection('join_requests');
  const decide = async (tenantId: string, id: string, status: 'APPROVED' | 'REJECTED') => {
    const doc = await requests.findOneAndUpdate(
      { _id: id, tenantId, status: 'PENDING' },
      { $set: { status } },
      { returnDocument: 'after' },
    );
    return doc ? toRequest(doc) : undefined;
  };
  return {
    async ensureIndexes() {
      await requests.createIndex({ tenantId: 1, status: 1 }, { name: 'tenant_status' });
    },
    async claimDomain(domain, tenantId) {
      await domains.updateOne({ _id: domain }, { $set: { tenantId } }, { upsert: true });
    },
    async tenantForDomain(domain) {
      return (await domains.findOne({ _id: domain }))?.tenantId;
    },
    async insertRequest({ id, ...rest }) {
      await requests.insertOne({ _id: id, ...rest });
    },
    async listPending(tenantId) {
      const docs = await requests
        .find({ tenantId, status: 'PENDING' })
        .sort({ createdAt: 1 })
        .limit(500)
        .toArray();
      return docs.map(toRequest);
    },
    async findPending(tenantId, id) {
      const doc = await requests.findOne({ _id: id });
      return doc && doc.tenantId === tenantId && doc.status === 'PENDING' ? toRequest(doc) : undefined;
    },
    approve: (tenantId, id) => decide(tenantId, id, 'APPROVED'),
    reject: (tenantId, id) => decide(tenantId, id, 'REJECTED'),
  };
}
