import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import { runDriftPass, type DriftPassReport, type DriftWatchDeps } from '../operations/run-drift-pass.js';

/** A running drift-watch schedule. */
export type DriftWatchJob = PeriodicJob;

/** The drift watch as app.ts wires it: a pass on demand, or on a schedule. */
export interface DriftWatch {
  run(): Promise<DriftPassReport>;
  start(): DriftWatchJob;
}

/**
 * Runs a drift-watch pass (operations/run-drift-pass.ts: every due tenant's projection brought up
 * to date with time) every `intervalMs`; one pass at a time on this replica, and other replicas
 * are kept off its tenants by the claims. A pass that claimed nothing is not logged.
 */
export function driftWatch(
  deps: Omit<DriftWatchDeps, 'onTenantError'> & { readonly intervalMs: number; readonly logger: JobLogger },
): DriftWatch {
  const run = () =>
    runDriftPass({
      ...deps,
      onTenantError: (tenantId, error) =>
        deps.logger.warn({ err: error, tenantId }, 'drift watch failed for a tenant'),
    });
  return {
    run,
    start: () =>
      startPeriodicJob({
        name: 'drift-watch',
        intervalMs: deps.intervalMs,
        run,
        logger: deps.logger,
        describe: (report) => (report.claimed + report.failed > 0 ? { ...report } : undefined),
      }),
  };
}
