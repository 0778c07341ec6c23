import { eventSubject, type ProductEvent } from '@tap/contracts';
import type { BatchHandler, TenantGroup, TenantOutcome } from '@tap/events';
import type { RefusedEvent, SequencedEvent, UsageBatchResult } from '../operations/count-usage-batch.js';

/** Tenants written at once; each is one document, so they do not contend with each other. */
export const TENANT_WRITE_CONCURRENCY = 16;

export interface RefusedRecord {
  readonly id: string;
  readonly reason: string;
  readonly detail: string;
  readonly subject: string;
  readonly eventType: string;
  readonly tenantId: string;
}

export interface UsageBatchHandlerDeps {
  readonly count: (tenantId: string, events: readonly SequencedEvent[]) => Promise<UsageBatchResult>;
  /** Records an event the rules refused (rejected_events) before it is dead-lettered and acked. */
  readonly recordRefused: (record: RefusedRecord) => Promise<void>;
  readonly subjectPrefix: string;
}

/**
 * The usage counters' batch handler: each tenant's group is counted by one operation call
 * (one write), tenants side by side. A failure of one tenant is that tenant's `retry` only;
 * refused events (INVALID_EVENT) are recorded and answered as `rejected`, never retried.
 */
export function usageBatchHandler(deps: UsageBatchHandlerDeps): BatchHandler {
  return async (groups) => {
    const outcomes = new Map<string, TenantOutcome>();
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let group = groups[next++]; group; group = groups[next++]) {
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
    const bySeq = new Map(group.items.map((item) => [item.seq, item.event]));
    for (const refused of result.refused) {
      const event = bySeq.get(refused.seq);
      if (event) await deps.recordRefused(refusedRecord(deps, refused, event));
    }
    return {
      kind: 'ok',
      rejected: result.refused.map((r) => ({ seq: r.seq, reason: detailOf(r) })),
    };
  } catch (error) {
    return { kind: 'retry', reason: error instanceof Error ? error.message : String(error), error };
  }
}

function refusedRecord(
  deps: UsageBatchHandlerDeps,
  refused: RefusedEvent,
  event: ProductEvent,
): RefusedRecord {
  return {
    id: event.id,
    reason: 'INVALID_EVENT',
    detail: detailOf(refused),
    subject: eventSubject(event.tenantId, event.type, deps.subjectPrefix),
    eventType: event.type,
    tenantId: event.tenantId,
  };
}

function detailOf(refused: RefusedEvent): string {
  return refused.field ? `${refused.reason} (${refused.field})` : refused.reason;
}
