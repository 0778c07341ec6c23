import type { Collection, Db } from 'mongodb';
import type { Session } from '../domain/session.js';
import type { SessionsRepository } from '../operations/ports/sessions-repository.js';

interface SessionDocument extends Omit<Session, 'id'> {
  _id: string;
}

/** A user's list of sessions shows at most this many (the newest); a person has a handful. */
const MAX_LISTED_SESSIONS = 100;

const toSession = ({ _id, ...rest }: SessionDocument): Session => ({ id: _id, ...rest });

/** The repository over identity's `sessions` collection. */
export function sessionsRepository(db: Db): SessionsRepository {
  const sessions: Collection<SessionDocument> = db.collection('sessions');
  return {
    async ensureIndexes() {
      await sessions.createIndex({ userId: 1 }, { name: 'user' });
      await sessions.createIndex({ currentExpiresAt: 1 }, { name: 'expiry' });
    },
    async insert(session) {
      const { id, ...rest } = session;
      await sessions.insertOne({ _id: id, ...rest });
    },
    async find(sessionId) {
      const doc = await sessions.findOne({ _id: sessionId });
      return doc ? toSession(doc) : undefined;
    },
    async rotate(sessionId, presentedHashes, next, now) {
      // Equality on a keyed hash: a timing difference could only reveal how much of an HMAC of
      // the caller's own input matches, which is worthless without the key. Both secrets' hashes
      // in one filter: a rotation costs no extra round trip while a secret is rotated out.
      const currentHash = presentedHashes.length === 1 ? presentedHashes[0] : { $in: [...presentedHashes] };
      const doc = await sessions.findOneAndUpdate(
        { _id: sessionId, currentHash, revokedAt: null, currentExpiresAt: { $gt: now } },
        {
          $set: {
            currentHash: next.hash,
            currentExpiresAt: next.expiresAt,
            previousHash: presentedHashes[0],
            rotatedAt: now,
            graceUses: 0,
            lastUsedAt: now,
          },
        },
        { returnDocument: 'after' },
      );
      return doc ? toSession(doc) : undefined;
    },
    async honourGrace(sessionId, parentHash, childHash, maxUses) {
      const doc = await sessions.findOneAndUpdate(
        {
          _id: sessionId,
          previousHash: parentHash,
          currentHash: childHash,
          revokedAt: null,
          graceUses: { $lt: maxUses },
        },
        { $inc: { graceUses: 1 } },
        { returnDocument: 'after' },
      );
      return doc ? toSession(doc) : undefined;
    },
    async revoke(sessionId, reason, now) {
      await sessions.updateOne(
        { _id: sessionId, revokedAt: null },
        { $set: { revokedAt: now, revokedReason: reason } },
      );
    },
    async listLive(tenantId, userId, now) {
      const docs = await sessions
        .find({ userId, tenantId, revokedAt: null, currentExpiresAt: { $gt: now } })
        .sort({ createdAt: -1 })
        .limit(MAX_LISTED_SESSIONS)
        .toArray();
      return docs.map(toSession);
    },
    async revokeAllOfUser(tenantId, userId, reason, now, exceptSessionId) {
      const live = await sessions
        .find({ tenantId, userId, revokedAt: null }, { projection: { _id: 1 } })
        .toArray();
      const ids = live.map((doc) => doc._id).filter((id) => id !== exceptSessionId);
      if (ids.length > 0) {
        await sessions.updateMany(
          { _id: { $in: ids }, revokedAt: null },
          { $set: { revokedAt: now, revokedReason: reason } },
        );
      }
      return ids;
    },
    async deleteExpired(before) {
      return (await sessions.deleteMany({ currentExpiresAt: { $lt: before } })).deletedCount;
    },
  };
}
