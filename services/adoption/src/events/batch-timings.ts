/**
 * Where each of the consumer's recent batches spent its time, kept in memory for stats() (the
 * bench reads it per phase; issue 13 asked where the publish → visible stalls come from).
 * Group stages are summed over the batch's groups, which run TENANT_WRITE_CONCURRENCY at a time,
 * so they can add up to more than the batch's wall time. All in milliseconds.
 */
export interface BatchTiming {
  /** When handling began (ms, performance.now()): gaps between batches show a consumer left waiting. */
  readonly startedAt: number;
  readonly messages: number;
  readonly tenants: number;
  /** Age of the batch's oldest message when the handler got it (publish → handling). */
  readonly waitedMs: number;
  /** The handler's wall time, every attempt: the groups' writes, then the raw-log append. */
  readonly handlerMs: number;
  /** Wall time of the groups' part (load, fold, recompute, write), concurrently. */
  readonly groupsMs: number;
  /** Reading the aggregate (or the consumer's memory of it), summed over the groups. */
  readonly loadMs: number;
  /** Raw-log look-ups of redeliveries behind `lastSeq`, summed. */
  readonly existingMs: number;
  /** Drift-schedule writes before the aggregate write, summed. */
  readonly scheduleMs: number;
  /** The conditional aggregate writes (with any part insert), summed. */
  readonly writeMs: number;
  /** The rest of the groups' time: dedupe, fold, recompute, and waiting for the event loop. */
  readonly inProcessMs: number;
  /** The batch's raw-log append (wall). */
  readonly rawLogMs: number;
  /** After the handler: acks and dead letters (the batch's duration less the handler's). */
  readonly settleMs: number;
  /** Handling start to the last ack. */
  readonly totalMs: number;
}

/** Recent batches kept: a bench phase of a few seconds has far fewer. */
export const BATCH_TIMINGS_KEPT = 512;

type Stage = 'loadMs' | 'existingMs' | 'scheduleMs' | 'writeMs' | 'groupsMs' | 'rawLogMs';

/** Accumulates the batch in hand (one at a time: the consumer has one batch in flight). */
export interface BatchTimingsRecorder {
  /** Adds `ms` to a stage of the batch in hand. */
  add(stage: Stage, ms: number): void;
  /** Adds a whole group's wall time (its in-process share is what its stages leave). */
  group(ms: number): void;
  /** Adds one handler call's wall time (a retried group calls it again). */
  handler(ms: number): void;
  /** Closes the batch in hand with the consumer's report of it. */
  finish(report: { messages: number; tenants: number; waitedMs: number; durationMs: number }): void;
  /** The kept batches, oldest first. */
  recent(): readonly BatchTiming[];
}

export function createBatchTimings(kept = BATCH_TIMINGS_KEPT): BatchTimingsRecorder {
  const done: BatchTiming[] = [];
  let stages = emptyStages();
  let groupWall = 0;
  let handlerMs = 0;
  return {
    add(stage, ms) {
      stages[stage] += ms;
    },
    group(ms) {
      groupWall += ms;
    },
    handler(ms) {
      handlerMs += ms;
    },
    finish(report) {
      const outside = stages.loadMs + stages.existingMs + stages.scheduleMs + stages.writeMs;
      done.push({
        startedAt: performance.now() - report.durationMs,
        messages: report.messages,
        tenants: report.tenants,
        waitedMs: report.waitedMs,
        handlerMs,
        ...stages,
        inProcessMs: Math.max(0, groupWall - outside),
        settleMs: Math.max(0, report.durationMs - handlerMs),
        totalMs: report.durationMs,
      });
      if (done.length > kept) done.splice(0, done.length - kept);
      stages = emptyStages();
      groupWall = 0;
      handlerMs = 0;
    },
    recent: () => [...done],
  };
}

function emptyStages(): Record<Stage, number> {
  return { loadMs: 0, existingMs: 0, scheduleMs: 0, writeMs: 0, groupsMs: 0, rawLogMs: 0 };
}

/** `fn`'s time added to `stage` (whether it resolves or rejects). */
export async function timed<T>(
  recorder: BatchTimingsRecorder | undefined,
  stage: Stage,
  fn: () => Promise<T>,
): Promise<T> {
  if (!recorder) return fn();
  const started = performance.now();
  try {
    return await fn();
  } finally {
    recorder.add(stage, performance.now() - started);
  }
}
