import type { TierAnnouncementsRepository } from '../operations/ports/tier-announcements-repository.js';
import type { TierAssignmentsRepository } from '../operations/ports/tier-assignments-repository.js';

/**
 * Tier assignments whose every change is announced on the bus (the `tier.changed` outbox): the
 * tenant is marked before the tier is written, so a crash after the write leaves the mark for
 * the relay; after the write `announce` publishes at once, off the caller's path (SetTier
 * answers after its two writes; a failed publish is the relay's to retry). `announce` never
 * rejects.
 */
export function announcingTiers(
  tiers: TierAssignmentsRepository,
  announcements: TierAnnouncementsRepository,
  announce: (tenantId: string) => Promise<void>,
): TierAssignmentsRepository {
  return {
    findOrCreate: (tenantId, now) => tiers.findOrCreate(tenantId, now),
    async setTier(tenantId, tierCode, now) {
      await announcements.mark(tenantId, now);
      const assignment = await tiers.setTier(tenantId, tierCode, now);
      void announce(tenantId);
      return assignment;
    },
  };
}
