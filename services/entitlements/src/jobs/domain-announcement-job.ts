import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { DomainPassReport } from '../operations/announce-domain-events.js';

/** How often the relay of tier.changed / usage.threshold_* (domain stream) runs. */
export const DEFAULT_DOMAIN_ANNOUNCEMENT_INTERVAL_MS = 10_000;
/**
 * How often every tenant is marked to be looked at again: a process that died between a usage
 * write and its mark left a crossing unannounced, and this finds it (events are derived from
 * state, so a tenant with nothing new announces nothing).
 */
export const DOMAIN_SWEEP_INTERVAL_MS = 3_600_000;

/** Runs the relay every `intervalMs`, and the sweep every DOMAIN_SWEEP_INTERVAL_MS (not at start). */
export function startDomainAnnouncementJob(options: {
  intervalMs: number;
  run: () => Promise<DomainPassReport>;
  sweep: () => Promise<number>;
  now: () => Date;
  logger: JobLogger;
}): PeriodicJob {
  // The first sweep waits a whole period: at start every tenant would be marked and announced at
  // once while the replica being replaced still writes, which starved the database in a rolling start.
  let lastSweep = options.now().getTime();
  return startPeriodicJob({
    name: 'domain-announcements',
    intervalMs: options.intervalMs,
    run: async () => {
      const at = options.now().getTime();
      let swept = 0;
      if (at - lastSweep >= DOMAIN_SWEEP_INTERVAL_MS) {
        swept = await options.sweep();
        lastSweep = at;
      }
      return { ...(await options.run()), swept };
    },
    logger: options.logger,
    // Logged when something was announced, failed or swept; a pass that only looked is quiet.
    describe: (report) =>
      report.events > 0 || report.failed > 0 || report.swept > 0 ? { ...report } : undefined,
  });
}
