import type { Collection, Db } from 'mongodb';
import { identityErrors } from '../domain/errors.js';
import type { Role } from '../domain/roles.js';
import type { User } from '../domain/user.js';
import { isDuplicateKey } from '@tap/errors';
import type { UsersRepository } from '../operations/ports/users-repository.js';

interface UserDocument {
  _id: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  active: boolean;
  /** argon2id PHC string; never leaves this service. */
  passwordHash: string;
  createdAt: Date;
  passwordChangedAt: Date;
  deactivatedAt?: Date | null;
  lastSignInAt?: Date | null;
  /**
   * The member.* outbox (store/member-announcements-repository.ts): every write that changes
   * tenant, role or active bumps the version and sets the mark in the same single-document
   * update, so a change is never left unannounced.
   */
  memberVersion?: number;
  announcePending?: boolean;
}

/** Set with every membership change, in the same update (the outbox mark). */
const MARK = { $inc: { memberVersion: 1 }, $set: { announcePending: true } } as const;
const marked = <T extends object>(set: T) => ({ $inc: MARK.$inc, $set: { ...set, ...MARK.$set } });

/** More members than this are not listed at once (the largest tier is unlimited; pages later). */
export const MAX_MEMBERS_LISTED = 1_000;
/** Active users read per tenant for a seat resync (SyncSeats' own bound). */
const MAX_ACTIVE_IDS = 100_000;

const toUser = (doc: UserDocument): User => ({
  id: doc._id,
  tenantId: doc.tenantId,
  email: doc.email,
  firstName: doc.firstName,
  lastName: doc.lastName,
  role: doc.role,
  active: doc.active,
  createdAt: doc.createdAt,
  deactivatedAt: doc.deactivatedAt ?? null,
  lastSignInAt: doc.lastSignInAt ?? null,
});

/** The repository over identity's `users` collection. */
export function usersRepository(db: Db): UsersRepository {
  const users: Collection<UserDocument> = db.collection('users');
  return {
    async ensureIndexes() {
      // The unique index is what makes "one account per email" hold under concurrent sign-ups.
      await users.createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
      await users.createIndex({ tenantId: 1 }, { name: 'tenant' });
    },
    async insert(user, passwordHash) {
      try {
        await users.insertOne({
          _id: user.id,
          tenantId: user.tenantId,
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          role: user.role,
          active: user.active,
          passwordHash,
          createdAt: user.createdAt,
          passwordChangedAt: user.createdAt,
          memberVersion: 1,
          announcePending: true,
        });
      } catch (error) {
        if (isDuplicateKey(error)) throw identityErrors.create('EMAIL_TAKEN');
        throw error;
      }
    },
    async findCredentials(email) {
      const doc = await users.findOne({ email });
      return doc ? { user: toUser(doc), passwordHash: doc.passwordHash } : undefined;
    },
    async findInTenant(tenantId, userId) {
      // By `_id` alone (a primary-key read on FerretDB too, where any other filter is a scan).
      const doc = await users.findOne({ _id: userId });
      return doc && doc.tenantId === tenantId ? toUser(doc) : undefined;
    },
    async setPasswordHash(email, passwordHash, now) {
      const doc = await users.findOneAndUpdate(
        { email },
        { $set: { passwordHash, passwordChangedAt: now } },
        { returnDocument: 'after' },
      );
      return doc ? toUser(doc) : undefined;
    },
    async activate(tenantId, userId) {
      const doc = await users.findOneAndUpdate(
        { _id: userId, tenantId },
        marked({ active: true, deactivatedAt: null }),
        { returnDocument: 'after' },
      );
      return doc ? toUser(doc) : undefined;
    },
    async deactivate(tenantId, userId, now) {
      const found = await users.findOne({ _id: userId });
      if (!found || found.tenantId !== tenantId) return undefined;
      // Deactivating twice keeps the first moment.
      const doc = await users.findOneAndUpdate(
        { _id: userId, tenantId },
        marked({ active: false, deactivatedAt: found.deactivatedAt ?? now }),
        { returnDocument: 'after' },
      );
      return doc ? toUser(doc) : undefined;
    },
    async place(userId, from, to) {
      const doc = await users.findOneAndUpdate(
        { _id: userId, tenantId: from.tenantId, role: from.role, active: from.active },
        marked({ tenantId: to.tenantId, role: to.role, active: to.active }),
        { returnDocument: 'after' },
      );
      return doc ? toUser(doc) : undefined;
    },
    async setRole(tenantId, userId, role) {
      const doc = await users.findOneAndUpdate({ _id: userId, tenantId }, marked({ role }), {
        returnDocument: 'after',
      });
      return doc ? toUser(doc) : undefined;
    },
    async recordSignIn(userId, at) {
      await users.updateOne({ _id: userId }, { $set: { lastSignInAt: at } });
    },
    async listMembers(tenantId) {
      const docs = await users
        .find({ tenantId, $or: [{ active: true }, { deactivatedAt: { $type: 'date' } }] })
        .sort({ createdAt: 1 })
        .limit(MAX_MEMBERS_LISTED)
        .toArray();
      return docs.map(toUser);
    },
    async listActiveIds(tenantId) {
      const docs = await users
        .find({ tenantId, active: true }, { projection: { _id: 1 } })
        .limit(MAX_ACTIVE_IDS)
        .toArray();
      return docs.map((doc) => doc._id);
    },
    async listTenantIds(after, limit) {
      const ids: string[] = await users.distinct(
        'tenantId',
        after === null ? {} : { tenantId: { $gt: after } },
      );
      return ids.sort().slice(0, limit);
    },
    async remove(tenantId, userId) {
      await users.deleteOne({ _id: userId, tenantId });
    },
  };
}
