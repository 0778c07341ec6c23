import type { JsMsg } from '@nats-io/jetstream';
import type { MessageQueue } from './message-queue.js';

// How long a wait for the pull side may sleep before looking at the stop signal again.
const POLL_MS = 250;

/**
 * Waits for the next batch: it is cut when `batchSize` messages wait, when `flushWindowMs` has
 * passed since the first of them arrived, or when the pull side has ended. Returns [] once
 * `signal` aborts or the queue is closed and empty: messages still waiting are not started.
 */
export async function collectBatch(
  queue: MessageQueue,
  batchSize: number,
  flushWindowMs: number,
  signal: AbortSignal,
): Promise<JsMsg[]> {
  while (queue.length === 0) {
    if (signal.aborted || queue.isClosed) return [];
    await queue.changed(POLL_MS);
  }
  for (;;) {
    if (signal.aborted) return [];
    const left = (queue.firstArrival() ?? 0) + flushWindowMs - Date.now();
    if (queue.length >= batchSize || queue.isClosed || left <= 0) break;
    await queue.changed(Math.min(left, POLL_MS));
  }
  return queue.take(batchSize);
}
