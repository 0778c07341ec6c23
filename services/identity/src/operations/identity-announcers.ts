import { clientChanges, type AnnouncedClient, type CurrentClient } from '../domain/client-announcements.js';
import {
  announcedAfter,
  memberChanges,
  type AnnouncedMembership,
  type CurrentMembership,
} from '../domain/member-announcements.js';
import type { Derived } from './announce-changes.js';

/** member.* events of a user's state (domain/member-announcements.ts), subject `{ userId }`. */
export function deriveMemberEvents(
  announced: AnnouncedMembership | null,
  current: CurrentMembership,
): Derived<AnnouncedMembership> {
  return {
    events: memberChanges(announced, current).map((change) => ({
      ...change,
      subject: { userId: current.userId },
    })),
    announced: announcedAfter(announced, current),
    remove: false,
  };
}

/** oauth_client.* events of a client's state, subject `{ clientId }`; a deleted client goes after. */
export function deriveClientEvents(
  announced: AnnouncedClient | null,
  current: CurrentClient,
): Derived<AnnouncedClient> {
  return {
    events: clientChanges(announced, current).map((change) => ({
      ...change,
      tenantId: current.tenantId,
      subject: { clientId: current.clientId },
    })),
    announced: { secretId: current.secretId },
    remove: current.deleted,
  };
}
