import { isDuplicateKey } from '@tap/errors';
import type { Collection, Db } from 'mongodb';
import type { MemberChange, MembersRepository } from '../operations/ports.js';

/** The most OWNERs one notice is mailed to (a tenant has a handful). */
const MAX_OWNERS = 50;

interface MemberDocument {
  _id: string;
  tenantId: string;
  userId: string;
  email?: string;
  role?: string;
  active: boolean;
  /** occurredAt of the event that wrote this state: an older event never overwrites it. */
  at: Date;
}

/**
 * The tenants' members as the member.* events told them (`tenant_members`, one document per
 * tenant and user): what the owner notices are mailed to. This service reads no other's database.
 */
export function membersRepository(db: Db): MembersRepository {
  const members: Collection<MemberDocument> = db.collection('tenant_members');
  return {
    async apply(change: MemberChange) {
      const set: Partial<MemberDocument> = {
        tenantId: change.tenantId,
        userId: change.userId,
        active: change.active,
        at: change.at,
        ...(change.email ? { email: change.email } : {}),
        ...(change.role ? { role: change.role } : {}),
      };
      try {
        await members.updateOne(
          { _id: `${change.tenantId}:${change.userId}`, at: { $lte: change.at } },
          { $set: set },
          { upsert: true },
        );
      } catch (error) {
        // The document holds a newer state: the upsert's insert met the existing _id.
        if (!isDuplicateKey(error)) throw error;
      }
    },
    async ownerAddresses(tenantId) {
      const docs = await members
        .find({ tenantId, role: 'OWNER', active: true }, { projection: { email: 1 } })
        .limit(MAX_OWNERS)
        .toArray();
      return docs.map((doc) => doc.email).filter((email): email is string => typeof email === 'string');
    },
  };
}
