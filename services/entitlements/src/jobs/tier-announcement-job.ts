import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { AnnouncementPassReport } from '../operations/announce-tiers.js';

/** How often the `tier.changed` relay looks for tiers still to be announced. */
export const DEFAULT_TIER_ANNOUNCEMENT_INTERVAL_MS = 10_000;

/** A running `tier.changed` relay. */
export type TierAnnouncementJob = PeriodicJob;

/** Runs a `tier.changed` relay pass every `intervalMs`; a pass with nothing to do is not logged. */
export function startTierAnnouncementJob(options: {
  intervalMs: number;
  run: () => Promise<AnnouncementPassReport>;
  logger: JobLogger;
}): TierAnnouncementJob {
  return startPeriodicJob({
    name: 'tier-announcements',
    intervalMs: options.intervalMs,
    run: options.run,
    logger: options.logger,
    describe: (report) => (report.pending > 0 ? { ...report } : undefined),
  });
}
