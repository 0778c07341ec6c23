import type { Collection, Db } from 'mongodb';
import type { RevocationReason, Session } from '../domain/session.js';

interface SessionDocument extends Omit<Session, 'id'> {
  _id: string;
}

/** Sessions (refresh-token families), one document each. */
export interface SessionsRepository {
  ensureIndexes(): Promise<void>;
  insert(session: Session): Promise<void>;
  find(sessionId: string): Promise<Session | undefined>;
  /**
   * The rotation, as one compare-and-set: succeeds only while the presented token is the current,
   * unexpired token of a session that is not revoked. Concurrent exchanges of one token: one wins.
   * `presentedHashes` are the token's hashes under the current secret and, while one is being
   * rotated out, the previous one; the first (the current secret's) becomes `previousHash`.
   */
  rotate(
    sessionId: string,
    presentedHashes: readonly [string, ...string[]],
    next: { hash: string; expiresAt: Date },
    now: Date,
  ): Promise<Session | undefined>;
  /** Counts one more honoured re-presentation of the immediate parent, if still allowed. */
  honourGrace(
    sessionId: string,
    parentHash: string,
    childHash: string,
    maxUses: number,
  ): Promise<Session | undefined>;
  /** Marks the session revoked; idempotent, and a no-op for an id that has no session. */
  revoke(sessionId: string, reason: RevocationReason, now: Date): Promise<void>;
  /** Revokes every live session of a user; returns their ids (for the access-token revocation list). */
  revokeAllOfUser(tenantId: string, userId: string, reason: RevocationReason, now: Date): Promise<string[]>;
  /** Deletes sessions whose refresh token expired before `before`; returns how many. */
  deleteExpired(before: Date): Promise<number>;
}

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
    async revokeAllOfUser(tenantId, userId, reason, now) {
      const live = await sessions
        .find({ tenantId, userId, revokedAt: null }, { projection: { _id: 1 } })
        .toArray();
      const ids = live.map((doc) => doc._id);
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
