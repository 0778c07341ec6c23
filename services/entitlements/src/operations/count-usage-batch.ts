import {
  entitlementErrors,
  foldUsageBatch,
  historyWritesAfter,
  usageDeltasFor,
  writeParts,
  type EventUsageDelta,
  type UsageEvent,
} from '../domain/index.js';
import { MAX_WRITE_ATTEMPTS } from './deps.js';

/**
 * Ids of a tenant's most recently counted events kept in its document: a copy of one of them
 * (published again under another message id, past the stream's own duplicate window) counts
 * nothing. Bounded, so the document does not grow with history; an id lookup in a collection of
 * its own would, on FerretDB v1, scan the whole collection (docs/entitlements-model.md).
 */
export const RECENT_EVENT_IDS_KEPT = 1_000;
import { finishRemovals, resolveDistinct } from './traced-deltas.js';
import type { UsageBatchDeps, UsageBatchView } from './usage-batch-ports.js';

/** One event of a tenant's batch with its stream sequence. */
export interface SequencedEvent {
  readonly event: UsageEvent;
  readonly seq: number;
}

/** An event the counting rules refuse for good (INVALID_EVENT): park it, never retry it. */
export interface RefusedEvent {
  readonly seq: number;
  readonly event: UsageEvent;
  readonly reason: string;
  readonly field?: string;
}

/** What a tenant's batch came to. */
export interface UsageBatchResult {
  readonly counted: number;
  readonly refused: readonly RefusedEvent[];
}

interface Counted extends SequencedEvent {
  readonly deltas: readonly EventUsageDelta[];
}

/**
 * Counts one tenant's events of a batch (in stream order) with as few writes as possible: one
 * conditional update per batch (more only when a traced product is removed and added back in
 * the same batch). Exactly once: an event at or below the tenant's `lastSeq` was applied by an
 * earlier write (a redelivery), and an event whose id is among the tenant's recent ones is a
 * copy published again; both count nothing. Throws RESERVATION_CONTENDED (retry later) when the document kept
 * moving under MAX_WRITE_ATTEMPTS folds.
 */
export async function countUsageBatch(
  deps: UsageBatchDeps,
  tenantId: string,
  events: readonly SequencedEvent[],
): Promise<UsageBatchResult> {
  const refused: RefusedEvent[] = [];
  const counting: Counted[] = [];
  for (const item of events) {
    try {
      const deltas = usageDeltasFor(item.event);
      if (deltas.length > 0) counting.push({ ...item, deltas });
    } catch (error) {
      if (!entitlementErrors.is(error, 'INVALID_EVENT')) throw error;
      const field = error.details?.['field'];
      refused.push({
        seq: item.seq,
        event: item.event,
        reason: error.message,
        ...(typeof field === 'string' ? { field } : {}),
      });
    }
  }
  if (counting.length === 0) return { counted: 0, refused };
  return deps.lock.run(tenantId, async () => {
    let counted = 0;
    for (const part of writeParts(counting)) counted += await writePart(deps, tenantId, part);
    return { counted, refused };
  });
}

async function writePart(deps: UsageBatchDeps, tenantId: string, part: readonly Counted[]): Promise<number> {
  const keys = [
    ...new Set(part.flatMap((i) => i.deltas.flatMap((d) => (d.reservationKey ? [d.reservationKey] : [])))),
  ];
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
    const now = deps.now();
    const view = await deps.store.read(tenantId, keys);
    const fresh = freshEvents(view, part);
    if (fresh.length === 0) return 0;
    const items = [];
    for (const item of fresh) {
      items.push({
        eventId: item.event.id,
        deltas: await resolveDistinct(deps.markers, item.event, item.deltas, now),
      });
    }
    const fold = foldUsageBatch(view, items, now);
    const write = {
      ...fold,
      lastSeq: Math.max(view.lastSeq, ...fresh.map((i) => i.seq)),
      recentEventIds: [...view.recentEventIds, ...fresh.map((i) => i.event.id)].slice(-RECENT_EVENT_IDS_KEPT),
    };
    if (!(await deps.store.apply(tenantId, view, write, now))) continue;
    deps.changed?.(tenantId, view.version + 1);
    await deps.history?.record(
      tenantId,
      historyWritesAfter((key, period) => view.counter(key, period).used, fold.increments, now),
    );
    for (const item of fresh) await finishRemovals(deps.markers, item.event, item.deltas);
    return fresh.length;
  }
  throw entitlementErrors.create('RESERVATION_CONTENDED');
}

/**
 * The part's events not applied yet: above the tenant's lastSeq (at or below it, an earlier
 * write applied them and only the acks were lost), not among its recently counted ids (a copy
 * published again under another message id), and not twice in the part.
 */
function freshEvents(view: UsageBatchView, part: readonly Counted[]): Counted[] {
  const seen = new Set(view.recentEventIds);
  return part.filter((i) => {
    if (i.seq <= view.lastSeq || seen.has(i.event.id)) return false;
    seen.add(i.event.id);
    return true;
  });
}
