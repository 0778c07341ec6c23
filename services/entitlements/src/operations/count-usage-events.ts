import { eventSubject, type ProductEvent } from '@tap/contracts';
import { countUsageBatch, type RefusedEvent } from './count-usage-batch.js';
import type { RejectedEvent, RejectedEventsRepository } from './ports/rejected-events-repository.js';
import type { UsageBatchDeps } from './usage-batch-ports.js';

export interface CountUsageEventsDeps {
  readonly batch: UsageBatchDeps;
  readonly rejected: Pick<RejectedEventsRepository, 'record'>;
  /** The stream's subject prefix: a recorded event names the subject it came on. */
  readonly subjectPrefix: string;
}

/** One product event of a tenant's batch with its stream sequence. */
export interface SequencedProductEvent {
  readonly event: ProductEvent;
  readonly seq: number;
}

/** What a tenant's events came to: how many counted, and those refused for good (with why). */
export interface CountedUsageEvents {
  readonly counted: number;
  readonly rejected: readonly { readonly seq: number; readonly reason: string }[];
}

/**
 * Counts one tenant's events of a batch (countUsageBatch: one conditional write) and records
 * every event the counting rules refused (INVALID_EVENT) in the rejected events before the
 * consumer dead-letters and acks it, so an operator finds it. A failure (the count or a record)
 * throws: the consumer tries the tenant's events again, and both steps are idempotent.
 */
export async function countUsageEvents(
  deps: CountUsageEventsDeps,
  tenantId: string,
  items: readonly SequencedProductEvent[],
): Promise<CountedUsageEvents> {
  const result = await countUsageBatch(
    deps.batch,
    tenantId,
    items.map((item) => ({ event: item.event, seq: item.seq })),
  );
  const bySeq = new Map(items.map((item) => [item.seq, item.event]));
  for (const refused of result.refused) {
    const event = bySeq.get(refused.seq);
    if (event) await deps.rejected.record(refusedRecord(deps, refused, event), deps.batch.now());
  }
  return {
    counted: result.counted,
    rejected: result.refused.map((r) => ({ seq: r.seq, reason: detailOf(r) })),
  };
}

function refusedRecord(
  deps: CountUsageEventsDeps,
  refused: RefusedEvent,
  event: ProductEvent,
): RejectedEvent {
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
