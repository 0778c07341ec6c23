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
}

const toUser = (doc: UserDocument): User => ({
  id: doc._id,
  tenantId: doc.tenantId,
  email: doc.email,
  firstName: doc.firstName,
  lastName: doc.lastName,
  role: doc.role,
  active: doc.active,
  createdAt: doc.createdAt,
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
        { $set: { active: true } },
        { returnDocument: 'after' },
      );
      return doc ? toUser(doc) : undefined;
    },
    async place(userId, from, to) {
      const doc = await users.findOneAndUpdate(
        { _id: userId, tenantId: from.tenantId, role: from.role, active: from.active },
        { $set: { tenantId: to.tenantId, role: to.role, active: to.active } },
        { returnDocument: 'after' },
      );
      return doc ? toUser(doc) : undefined;
    },
    async remove(tenantId, userId) {
      await users.deleteOne({ _id: userId, tenantId });
    },
  };
}
