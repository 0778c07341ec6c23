import type { ReadOperationsDeps } from './read-deps.js';

/** A tenant's cached view: its tier assignment and usage record (see read-model-cache.ts). */
export type EntitlementsView = Awaited<ReturnType<ReadOperationsDeps['reads']['view']>>;

/**
 * The tenant's view from the read model: the same object until a write, a notice or its TTL
 * replaces it, so reads of one view can share what they build from it.
 */
export function readTenantView(
  deps: Pick<ReadOperationsDeps, 'reads'>,
  tenantId: string,
): Promise<EntitlementsView> {
  return deps.reads.view(tenantId);
}

/**
 * The UTC minute of `now`. The usage report and `can` read the clock only through the month of
 * the monthly counters and the resets of the day and minute windows, which all begin on a minute:
 * built from one view within one minute, they are the same.
 */
export function answerMinute(now: Date): number {
  return Math.floor(now.getTime() / 60_000);
}
