import { isDuplicateKey } from '@tap/errors';
import type { Collection, Db } from 'mongodb';
import { identityErrors } from '../domain/errors.js';
import type { Invitation } from '../domain/invitation.js';
import type { InvitationsRepository } from '../operations/ports/invitations-repository.js';

interface InvitationDocument extends Omit<Invitation, 'id'> {
  _id: string;
  /**
   * `<tenantId>|<email>` while the invitation holds the pending slot, `done|<id>` once it was
   * accepted, revoked or found expired: a unique (not partial) index on it makes "one pending
   * invitation per tenant and address" hold under concurrent invites.
   */
  slot: string;
  updatedAt: Date;
}

/** At most this many pending invitations are listed (a tenant's team is far smaller). */
const MAX_LISTED = 500;

const pendingSlot = (tenantId: string, email: string) => `${tenantId}|${email}`;
const doneSlot = (id: string) => `done|${id}`;

const toInvitation = ({
  _id,
  slot: _slot,
  updatedAt: _updatedAt,
  ...rest
}: InvitationDocument): Invitation => ({
  id: _id,
  ...rest,
});

/** The repository over identity's `invitations` collection. */
export function invitationsRepository(db: Db): InvitationsRepository {
  const invitations: Collection<InvitationDocument> = db.collection('invitations');
  return {
    async ensureIndexes() {
      await invitations.createIndex({ slot: 1 }, { unique: true, name: 'pending_slot_unique' });
      await invitations.createIndex({ tenantId: 1 }, { name: 'tenant' });
      await invitations.createIndex({ expiresAt: 1 }, { name: 'expiry' });
    },
    async insert(invitation) {
      const { id, ...rest } = invitation;
      try {
        await invitations.insertOne({
          _id: id,
          ...rest,
          slot: pendingSlot(invitation.tenantId, invitation.email),
          updatedAt: invitation.createdAt,
        });
      } catch (error) {
        if (isDuplicateKey(error)) throw identityErrors.create('INVITATION_PENDING');
        throw error;
      }
    },
    async findInTenant(tenantId, id) {
      // By `_id` alone (a primary-key read on FerretDB), the tenant compared here.
      const doc = await invitations.findOne({ _id: id });
      return doc && doc.tenantId === tenantId ? toInvitation(doc) : undefined;
    },
    async find(id) {
      const doc = await invitations.findOne({ _id: id });
      return doc ? toInvitation(doc) : undefined;
    },
    async findPendingFor(tenantId, email) {
      const doc = await invitations.findOne({ slot: pendingSlot(tenantId, email) });
      return doc ? toInvitation(doc) : undefined;
    },
    async listPending(tenantId, now) {
      const docs = await invitations
        .find({ tenantId, status: { $in: ['PENDING', 'ACCEPTING'] }, expiresAt: { $gt: now } })
        .sort({ createdAt: -1 })
        .limit(MAX_LISTED)
        .toArray();
      return docs.map(toInvitation);
    },
    async expire(tenantId, id, now) {
      await invitations.updateOne(
        { _id: id, tenantId, status: 'PENDING', expiresAt: { $lte: now } },
        { $set: { slot: doneSlot(id), updatedAt: now } },
      );
    },
    async revoke(tenantId, id, now) {
      const doc = await invitations.findOneAndUpdate(
        { _id: id, tenantId, status: 'PENDING', expiresAt: { $gt: now } },
        { $set: { status: 'REVOKED', slot: doneSlot(id), updatedAt: now } },
        { returnDocument: 'after' },
      );
      return doc ? toInvitation(doc) : undefined;
    },
    async claim(id, now, staleBefore) {
      const doc = await invitations.findOneAndUpdate(
        {
          _id: id,
          expiresAt: { $gt: now },
          $or: [{ status: 'PENDING' }, { status: 'ACCEPTING', claimedAt: { $lt: staleBefore } }],
        },
        { $set: { status: 'ACCEPTING', claimedAt: now, updatedAt: now } },
        { returnDocument: 'after' },
      );
      return doc ? toInvitation(doc) : undefined;
    },
    async release(id, claimedAt) {
      await invitations.updateOne(
        { _id: id, status: 'ACCEPTING', claimedAt },
        { $set: { status: 'PENDING', claimedAt: null } },
      );
    },
    async complete(id, claimedAt, now) {
      await invitations.updateOne(
        { _id: id, status: 'ACCEPTING', claimedAt },
        { $set: { status: 'ACCEPTED', slot: doneSlot(id), updatedAt: now } },
      );
    },
    async deleteExpired(before) {
      return (await invitations.deleteMany({ expiresAt: { $lt: before } })).deletedCount;
    },
  };
}
