import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { ClosedConnectionError, DrainingConnectionError } from '@nats-io/nats-core';
import { PULL_RESTART_INITIAL_MS, PULL_RESTART_MAX_MS } from '../defaults.js';
import type { ConsumerErrorReport } from './types.js';

export interface PullLoopOptions {
  /** The consumer to pull from first. */
  readonly consumer: Consumer;
  /** Ensures the durable consumer exists again and returns it, for each restart. */
  readonly reopen: () => Promise<Consumer>;
  readonly batch: number;
  /** Handles one message and never rejects. */
  readonly process: (msg: JsMsg) => Promise<void>;
  readonly onError: (error: unknown, report: ConsumerErrorReport) => void;
  /** Aborting it ends the loop once the message in hand is settled. */
  readonly signal: AbortSignal;
}

/**
 * Pulls and handles messages one at a time until `signal` aborts. When the pull ends on its own
 * (the durable consumer or the stream was deleted), the loop recreates the consumer and pulls
 * again after a growing pause, rather than sitting idle with nothing to say so; when the
 * connection itself is closed, there is nothing to pull from and the loop ends. Resolves,
 * never rejects.
 */
export async function runPullLoop(options: PullLoopOptions): Promise<void> {
  const { signal } = options;
  let consumer: Consumer | undefined = options.consumer;
  let restarts = 0;
  while (!signal.aborted) {
    try {
      consumer ??= await options.reopen();
      if (await pullUntilEnded(consumer, options)) restarts = 0;
      if (signal.aborted) return;
      report(options, new Error('the pull subscription ended'), true);
    } catch (error) {
      if (signal.aborted) return;
      const closed = error instanceof ClosedConnectionError || error instanceof DrainingConnectionError;
      report(options, error, !closed);
      if (closed) return;
    }
    consumer = undefined;
    restarts += 1;
    const pause = Math.min(PULL_RESTART_MAX_MS, PULL_RESTART_INITIAL_MS * 2 ** Math.min(restarts - 1, 10));
    await sleep(pause, undefined, { signal }).catch(() => undefined);
  }
}

/** One pull subscription, until it ends; true when it handled at least one message. */
async function pullUntilEnded(consumer: Consumer, options: PullLoopOptions): Promise<boolean> {
  const { signal } = options;
  // Without abort_on_missing_resource a deleted consumer leaves the pull waiting forever.
  const messages = await consumer.consume({ max_messages: options.batch, abort_on_missing_resource: true });
  // close() stops pulling at once; messages already pulled still come out of the iterator, and
  // the iterator ends after them, so the `for await` below is what drains and finishes.
  const close = (): void => void messages.close();
  signal.addEventListener('abort', close, { once: true });
  if (signal.aborted) close();
  let handled = false;
  try {
    for await (const msg of messages) {
      if (signal.aborted) {
        release(options, msg);
        continue;
      }
      await options.process(msg);
      handled = true;
    }
  } finally {
    signal.removeEventListener('abort', close);
  }
  return handled;
}

// A message pulled ahead but not started goes back now, so another replica need not wait ack wait.
function release(options: PullLoopOptions, msg: JsMsg): void {
  try {
    msg.nak();
  } catch (error) {
    report(options, error, false);
  }
}

function report(options: PullLoopOptions, error: unknown, willRetry: boolean): void {
  try {
    options.onError(error, { stage: 'pull', willRetry });
  } catch {
    // A failing logger must not end the loop.
  }
}
