import type { Db } from 'mongodb';
import type { AnnouncedMembership, CurrentMembership } from '../domain/member-announcements.js';
import type { Role } from '../domain/roles.js';
import type { AnnouncementsRepository } from '../operations/ports/announcements-repository.js';
import { announcementsOver, type AnnouncedFields } from './announcements-collection.js';

interface MemberDocument extends AnnouncedFields<AnnouncedMembership> {
  tenantId: string;
  email: string;
  role: Role;
  active: boolean;
  memberVersion?: number;
}

/** The member.* outbox over the `users` collection (its writes set the mark: users-repository.ts). */
export function memberAnnouncementsRepository(
  db: Db,
): AnnouncementsRepository<AnnouncedMembership, CurrentMembership> {
  return announcementsOver(db.collection<MemberDocument>('users'), 'memberVersion', (doc) => ({
    userId: doc._id,
    tenantId: doc.tenantId,
    email: doc.email,
    role: doc.role,
    active: doc.active,
  }));
}
