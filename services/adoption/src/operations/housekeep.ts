/**
 * Housekeeping of what the writers leave behind: raw events past their retention, and summary
 * parts no aggregate names (a crash between a part's insert and the aggregate write that would
 * have named it, or before a replaced part's background deletion). Neither is ever read, so the
 * pass only reclaims space; it is idempotent, and several replicas running it at once only
 * repeat deletions.
 */

import type { OrphanParts, PrunableEventLog } from '../ports.js';

/** A part unnamed this long after its insert can never be named: its writer wrote (or gave up) in milliseconds. */
export const ORPHAN_PART_GRACE_MS = 60 * 60_000;

/** Parts one pass looks at, at most (the rest wait for the next pass, oldest first on MongoDB). */
export const ORPHAN_PARTS_PER_PASS = 1_000;

export interface HousekeepingDeps {
  readonly rawEvents: PrunableEventLog;
  readonly orphanParts: OrphanParts;
  readonly now: () => Date;
  readonly rawEventRetentionMs: number;
}

/** What one pass did. */
export interface HousekeepingReport {
  readonly rawEventsPruned: number;
  readonly partsLookedAt: number;
  readonly orphanPartsDeleted: number;
}

/** One pass: both halves run even when the other fails; the first failure is rethrown after. */
export async function housekeep(deps: HousekeepingDeps): Promise<HousekeepingReport> {
  const now = deps.now().getTime();
  const [pruned, swept] = await Promise.allSettled([
    deps.rawEvents.pruneBefore(new Date(now - deps.rawEventRetentionMs)),
    deps.orphanParts.sweep(new Date(now - ORPHAN_PART_GRACE_MS), ORPHAN_PARTS_PER_PASS),
  ]);
  if (pruned.status === 'rejected') throw pruned.reason;
  if (swept.status === 'rejected') throw swept.reason;
  return {
    rawEventsPruned: pruned.value,
    partsLookedAt: swept.value.looked,
    orphanPartsDeleted: swept.value.deleted,
  };
}
