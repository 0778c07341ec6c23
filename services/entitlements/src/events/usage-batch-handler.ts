import type { BatchHandler, TenantGroup, TenantOutcome } from '@tap/events';
import type { CountedUsageEvents, SequencedProductEvent } from '../operations/count-usage-events.js';

/**
 * Tenants written at once. Each is one document, so on MongoDB they do not contend; FerretDB on
 * SQLite takes one writer at a time and parks the others in its busy handler, so more than a
 * few side by side only wait, and one alone leaves the consumer's own work unoverlapped.
 */
export const TENANT_WRITE_CONCURRENCY = 4;

export interface UsageBatchHandlerDeps {
  /** The countUsageEvents operation, bound: counts one tenant's events, records the refused ones. */
  readonly count: (tenantId: string, events: readonly SequencedProductEvent[]) => Promise<CountedUsageEvents>;
  /** True once the process is stopping: groups not begun yet are handed back, not counted. */
  readonly stopping?: () => boolean;
}

/**
 * The usage counters' batch handler: each tenant's group is counted by one operation call
 * (one write), tenants side by side. A failure of one tenant is that tenant's `retry` only;
 * refused events (INVALID_EVENT), recorded by the operation, are answered as `rejected`, never
 * retried.
 */
export function usageBatchHandler(deps: UsageBatchHandlerDeps): BatchHandler {
  return async (groups) => {
    const outcomes = new Map<string, TenantOutcome>();
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let group = groups[next++]; group; group = groups[next++]) {
        // A stop must not wait for hundreds of tenant writes (the shutdown would outlast its
        // grace and exit 1): what is not begun goes back to the stream and the next owner counts it.
        if (deps.stopping?.()) {
          outcomes.set(group.tenantId, { kind: 'retry', reason: 'stopping' });
          continue;
        }
        outcomes.set(group.tenantId, await countGroup(deps, group));
      }
    };
    await Promise.all(Array.from({ length: Math.min(TENANT_WRITE_CONCURRENCY, groups.length) }, worker));
    return outcomes;
  };
}

async function countGroup(deps: UsageBatchHandlerDeps, group: TenantGroup): Promise<TenantOutcome> {
  try {
    const result = await deps.count(
      group.tenantId,
      group.items.map((item) => ({ event: item.event, seq: item.seq })),
    );
    return { kind: 'ok', rejected: result.rejected.map((r) => ({ seq: r.seq, reason: r.reason })) };
  } catch (error) {
    return { kind: 'retry', reason: error instanceof Error ? error.message : String(error), error };
  }
}
