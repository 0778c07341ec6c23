import type { RevocationReason, Session } from '../../domain/session.js';

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
  /** A user's sessions that are neither revoked nor expired, newest first (bounded). */
  listLive(tenantId: string, userId: string, now: Date): Promise<Session[]>;
  /**
   * Revokes every live session of a user, but `exceptSessionId` when given; returns their ids
   * (for the access-token revocation list).
   */
  revokeAllOfUser(
    tenantId: string,
    userId: string,
    reason: RevocationReason,
    now: Date,
    exceptSessionId?: string,
  ): Promise<string[]>;
  /** Deletes sessions whose refresh token expired before `before`; returns how many. */
  deleteExpired(before: Date): Promise<number>;
}
