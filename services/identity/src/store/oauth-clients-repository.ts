import type { Collection, Db } from 'mongodb';
import type { OAuthClient } from '../domain/oauth-client.js';
import type { Scope } from '../domain/roles.js';
import type { OAuthClientsRepository } from '../operations/ports/oauth-clients-repository.js';

interface ClientDocument {
  _id: string;
  tenantId: string;
  name: string;
  scopes: Scope[];
  /** Keyed hash (HMAC-SHA256) of the secret; the secret itself is shown once and never stored. */
  secretHash: string;
  /**
   * Which TOKEN_HASH_SECRET made `secretHash`, by its identifier (never the secret): the clients
   * not re-hashed yet during a rotation of that secret can be counted. Absent on older documents.
   */
  hashSecretId?: string;
  secretId: string;
  secretRotatedAt: Date;
  createdAt: Date;
  /** Set by the first step of a deletion: the client is gone for every reader from then on. */
  deletedAt: Date | null;
  /** The oauth_client.* outbox mark, set in the same update as each change (store/client-announcements-repository.ts). */
  announceVersion?: number;
  announcePending?: boolean;
  /** The deletion finished (tokens revoked) and only waits for its announcement, which removes it. */
  purged?: boolean;
}

const MARK = { $inc: { announceVersion: 1 } } as const;

const toClient = (doc: ClientDocument): OAuthClient => ({
  clientId: doc._id,
  tenantId: doc.tenantId,
  name: doc.name,
  scopes: doc.scopes,
  createdAt: doc.createdAt,
  secretId: doc.secretId,
  secretRotatedAt: doc.secretRotatedAt,
});

/** The repository over identity's `oauth_clients` collection. */
export function oauthClientsRepository(db: Db): OAuthClientsRepository {
  const clients: Collection<ClientDocument> = db.collection('oauth_clients');
  return {
    async ensureIndexes() {
      await clients.createIndex({ tenantId: 1 }, { name: 'tenant' });
    },
    async insert(client, { secretHash, hashSecretId }) {
      await clients.insertOne({
        _id: client.clientId,
        tenantId: client.tenantId,
        name: client.name,
        scopes: [...client.scopes],
        secretHash,
        hashSecretId,
        secretId: client.secretId,
        secretRotatedAt: client.secretRotatedAt,
        createdAt: client.createdAt,
        deletedAt: null,
        announceVersion: 1,
        announcePending: true,
      });
    },
    async findCredentials(clientId) {
      // By `_id` alone: the one filter FerretDB's SQLite backend answers with its primary key
      // instead of a scan of the collection (the token endpoint's hot path).
      const doc = await clients.findOne({ _id: clientId });
      return doc && doc.deletedAt === null
        ? { client: toClient(doc), secretHash: doc.secretHash }
        : undefined;
    },
    async rehashSecret(clientId, secretId, fromHash, to) {
      const result = await clients.updateOne(
        { _id: clientId, secretId, secretHash: fromHash, deletedAt: null },
        { $set: { secretHash: to.secretHash, hashSecretId: to.hashSecretId } },
      );
      return result.modifiedCount === 1;
    },
    async countHashedUnderOtherSecret(hashSecretId) {
      // A scan, run once at start and only while a previous secret is configured.
      return clients.countDocuments({ deletedAt: null, hashSecretId: { $ne: hashSecretId } });
    },
    async find(tenantId, clientId) {
      const doc = await clients.findOne({ _id: clientId, tenantId, deletedAt: null });
      return doc ? toClient(doc) : undefined;
    },
    async listByTenant(tenantId) {
      const docs = await clients.find({ tenantId, deletedAt: null }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map(toClient);
    },
    async replaceSecret(tenantId, clientId, expectedSecretId, next, now) {
      const doc = await clients.findOneAndUpdate(
        { _id: clientId, tenantId, secretId: expectedSecretId, deletedAt: null },
        {
          $set: {
            secretHash: next.secretHash,
            hashSecretId: next.hashSecretId,
            secretId: next.secretId,
            secretRotatedAt: now,
            announcePending: true,
          },
          ...MARK,
        },
        { returnDocument: 'after' },
      );
      return doc ? toClient(doc) : undefined;
    },
    async markDeleted(tenantId, clientId, now) {
      // Only an unmarked client gets the time, so a retry keeps the first deletion's.
      await clients.updateOne(
        { _id: clientId, tenantId, deletedAt: null },
        { $set: { deletedAt: now, announcePending: true }, ...MARK },
      );
      // A finished deletion waiting for its announcement is gone for a retry too.
      const doc = await clients.findOne({ _id: clientId, tenantId, purged: { $ne: true } });
      return doc ? toClient(doc) : undefined;
    },
    async purge(tenantId, clientId) {
      // A deletion not announced yet stays (hidden) for its announcement, which removes it.
      const removed = await clients.deleteOne({ _id: clientId, tenantId, announcePending: false });
      if (removed.deletedCount === 0)
        await clients.updateOne({ _id: clientId, tenantId }, { $set: { purged: true } });
    },
  };
}
