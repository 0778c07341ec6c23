import { nameBasedId, type ProductEvent } from '@tap/contracts';
import { getTier, tierChangedData } from '../domain/index.js';
import type {
  PendingAnnouncement,
  TierAnnouncementsRepository,
} from './ports/tier-announcements-repository.js';
import type { TierAssignment, TierAssignmentsRepository } from './ports/tier-assignments-repository.js';

/** Prefix of the names `tier.changed` ids are made from (fixed forever: changing it changes every id). */
const TIER_CHANGED_NAME = 'tap/entitlements/tier.changed';
/** Marks one relay pass looks at, at most, oldest first. */
export const ANNOUNCEMENT_BATCH_SIZE = 100;

/** Publishes an event; 'refused' when the contract refuses it (it never will be published). */
export type TierChangePublisher = (event: ProductEvent) => Promise<'published' | 'refused'>;

export interface AnnounceTierDeps {
  readonly tiers: TierAssignmentsRepository;
  readonly announcements: TierAnnouncementsRepository;
  readonly publish: TierChangePublisher;
  readonly now: () => Date;
}

/**
 * The `tier.changed` of an assignment. Its id names the assignment (tenant, tier, when it was
 * set, catalogue version), so a republish is stored once by the stream and ignored by consumers.
 */
export function tierChangedEvent(assignment: TierAssignment): ProductEvent<'tier.changed'> {
  const data = tierChangedData(getTier(assignment.tierCode));
  const at = assignment.updatedAt.toISOString();
  return {
    id: nameBasedId(
      `${TIER_CHANGED_NAME}\n${assignment.tenantId}\n${data.tierCode}\n${at}\n${data.catalogueVersion}`,
    ),
    type: 'tier.changed',
    tenantId: assignment.tenantId,
    occurredAt: at,
    subject: {},
    data: { ...data },
  };
}

/** Publishes the tenant's current tier and drops the mark it answers. */
export async function announceTier(
  deps: AnnounceTierDeps,
  pending: PendingAnnouncement,
): Promise<'published' | 'refused'> {
  const assignment = await deps.tiers.findOrCreate(pending.tenantId, deps.now());
  const outcome = await deps.publish(tierChangedEvent(assignment));
  // A refused event (a tenant id the event contract does not take) can never be published.
  await deps.announcements.clear(pending);
  return outcome;
}

/** What one relay pass did. */
export interface AnnouncementPassReport {
  readonly pending: number;
  readonly published: number;
  readonly refused: number;
  readonly failed: number;
}

/**
 * One pass of the `tier.changed` relay: each marked tenant's current tier is published, oldest
 * mark first. The pass stops at the first failure (the bus is most likely down); the next pass
 * starts again from the oldest.
 */
export async function runAnnouncementPass(
  deps: AnnounceTierDeps,
  onFailure: (tenantId: string, error: unknown) => void,
): Promise<AnnouncementPassReport> {
  const pending = await deps.announcements.pending(ANNOUNCEMENT_BATCH_SIZE);
  const report = { pending: pending.length, published: 0, refused: 0, failed: 0 };
  for (const mark of pending) {
    try {
      report[await announceTier(deps, mark)] += 1;
    } catch (error) {
      report.failed += 1;
      onFailure(mark.tenantId, error);
      break;
    }
  }
  return report;
}
