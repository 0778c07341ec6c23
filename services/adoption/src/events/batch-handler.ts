import type { BatchHandler, TenantOutcome } from '@tap/events';
import {
  ingestProductEvents,
  logAppliedEvents,
  type IngestDeps,
  type RawEventGroup,
} from '../operations/ingest-product-events.js';
import { timed, type BatchTimingsRecorder } from './batch-timings.js';

/**
 * Tenants written at once. FerretDB serialises writes in SQLite, but a group is also the
 * consumer's own work and the round trip, which overlap: with too few at once the consumer falls
 * behind many small tenants. More only queues the writes ahead of the API's reads, until
 * `GetState` misses its 2 s deadline during a rolling restart (docs/adoption-model.md §22).
 */
export const TENANT_WRITE_CONCURRENCY = 4;

export interface BatchHandlerLogger {
  warn(object: object, message: string): void;
}

/**
 * The milestone detector on the batched consumer: each tenant's group (stream order) is one
 * ingest (one conditional write carrying lastSeq); what can never be applied is answered as
 * rejected, so the consumer dead-letters it with the reason and the tenant's other events go on.
 * A failing write answers retry: the consumer offers the group again before its next batch, so
 * no later event of the tenant overtakes it. The raw log of every written group is appended once,
 * after the batch's writes and before any ack (logAppliedEvents); a group whose append failed
 * answers retry too.
 */
export function productBatchHandler(
  deps: IngestDeps & {
    logger: BatchHandlerLogger;
    /** True once the process is stopping: groups not started yet are handed back, not written. */
    stopping?: () => boolean;
    /** Where each batch's time goes (stats); none: not measured. */
    timings?: BatchTimingsRecorder;
  },
): BatchHandler {
  const { timings } = deps;
  const ingestDeps = timings ? timedDeps(deps, timings) : deps;
  return async (groups) => {
    const handlerStarted = performance.now();
    const outcomes = new Map<string, TenantOutcome>();
    const unlogged: RawEventGroup[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < groups.length) {
        const group = groups[next];
        next += 1;
        if (group === undefined) return;
        // A stop must not wait for hundreds of tenant writes: what is not begun goes back to the
        // stream (the consumer naks a retry group when stopping) and the next owner applies it.
        if (deps.stopping?.()) {
          outcomes.set(group.tenantId, { kind: 'retry', reason: 'stopping' });
          continue;
        }
        const items = group.items.map((item) => ({ event: item.event, seq: item.seq }));
        const groupStarted = performance.now();
        try {
          const outcome = await ingestProductEvents(ingestDeps, group.tenantId, items, { deferRawLog: true });
          outcomes.set(group.tenantId, { kind: 'ok', rejected: outcome.rejected });
          if (outcome.unlogged.length > 0)
            unlogged.push({ tenantId: group.tenantId, facts: outcome.unlogged });
        } catch (error) {
          deps.logger.warn(
            { err: error, tenantId: group.tenantId },
            'tenant group not applied yet; will retry',
          );
          outcomes.set(group.tenantId, { kind: 'retry', reason: (error as Error).message, error });
        }
        timings?.group(performance.now() - groupStarted);
      }
    };
    await timed(timings, 'groupsMs', () =>
      Promise.all(Array.from({ length: Math.min(TENANT_WRITE_CONCURRENCY, groups.length) }, worker)),
    );
    const notLogged = await timed(timings, 'rawLogMs', () =>
      logAppliedEvents(deps.rawEvents, unlogged, deps.now()),
    );
    for (const [tenantId, error] of notLogged) {
      deps.logger.warn({ err: error, tenantId }, 'tenant group written, raw log not; will retry');
      const reason = error instanceof Error ? error.message : String(error);
      outcomes.set(tenantId, { kind: 'retry', reason, error });
    }
    timings?.handler(performance.now() - handlerStarted);
    return outcomes;
  };
}

/** The use case's ports, each call's time added to its stage of the batch in hand. */
function timedDeps(deps: IngestDeps, timings: BatchTimingsRecorder): IngestDeps {
  const { aggregates, rawEvents } = deps;
  return {
    ...deps,
    aggregates: {
      load: (tenantId) => timed(timings, 'loadMs', () => aggregates.load(tenantId)),
      applyFacts: (...args) => timed(timings, 'writeMs', () => aggregates.applyFacts(...args)),
    },
    rawEvents: {
      append: (...args) => rawEvents.append(...args),
      appendGroups: (...args) => rawEvents.appendGroups(...args),
      existing: (...args) => timed(timings, 'existingMs', () => rawEvents.existing(...args)),
    },
    schedule: (...args) => timed(timings, 'scheduleMs', () => deps.schedule(...args)),
  };
}
