import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, JsMsg } from '@nats-io/jetstream';
import { ClosedConnectionError, DrainingConnectionError } from '@nats-io/nats-core';
import { FETCH_END_GRACE_MS, PULL_RESTART_INITIAL_MS, PULL_RESTART_MAX_MS } from '../defaults.js';
import type { ConsumerErrorReport } from './types.js';

export interface PullLoopOptions {
  /** The consumer to pull from first. */
  readonly consumer: Consumer;
  /** Ensures the durable consumer exists again and returns it, for each restart. */
  readonly reopen: () => Promise<Consumer>;
  readonly batch: number;
  /** How long one pull request lives; a stop waits at most this long for the one in progress. */
  readonly fetchExpiresMs: number;
  /** Handles one message and never rejects. */
  readonly process: (msg: JsMsg) => Promise<void>;
  readonly onError: (error: unknown, report: ConsumerErrorReport) => void;
  /** Aborting it ends the loop once the message in hand is settled. */
  readonly signal: AbortSignal;
}

/**
 * Pulls and handles messages one at a time until `signal` aborts. When a pull fails (the durable
 * consumer or the stream was deleted), the loop recreates the consumer and pulls
 * again after a growing pause, rather than sitting idle with nothing to say so; when the
 * connection itself is closed, there is nothing to pull from and the loop ends. Resolves,
 * never rejects.
 */
export async function runPullLoop(options: PullLoopOptions): Promise<void> {
  const { signal } = options;
  let consumer: Consumer | undefined = options.consumer;
  let restarts = 0;
  while (!signal.aborted) {
    const progress = { handled: false };
    try {
      consumer ??= await options.reopen();
      await pullUntilAborted(consumer, options, progress);
      return;
    } catch (error) {
      if (signal.aborted) return;
      const closed = error instanceof ClosedConnectionError || error instanceof DrainingConnectionError;
      report(options, error, !closed);
      if (closed) return;
    }
    if (progress.handled) restarts = 0;
    consumer = undefined;
    restarts += 1;
    const pause = Math.min(PULL_RESTART_MAX_MS, PULL_RESTART_INITIAL_MS * 2 ** Math.min(restarts - 1, 10));
    await sleep(pause, undefined, { signal }).catch(() => undefined);
  }
}

/**
 * Pull requests one after another, until one fails (rejects) or `signal` aborts (resolves). Each request asks for at most `batch` messages and lives at most
 * `fetchExpiresMs`.
 *
 * Why bounded requests rather than one endless `consume()`: closing a consume unsubscribes at
 * once, while the server may still be sending on its open request. Whatever is in flight then is
 * dropped by the client and stays unacked for the whole ack wait; a message nak'ed at that moment
 * can even be redelivered to the dead request. So on abort the loop lets the current request end
 * (its batch delivered or its expiry), holds what arrives meanwhile, and only then hands it back:
 * nothing is in flight any more, and the next pull (a new process, another replica) gets it at once.
 */
async function pullUntilAborted(
  consumer: Consumer,
  options: PullLoopOptions,
  progress: { handled: boolean },
): Promise<void> {
  const { signal } = options;
  while (!signal.aborted) {
    const messages = await consumer.fetch({ max_messages: options.batch, expires: options.fetchExpiresMs });
    // Ends the request once the server is surely done with it, whether or not it said so: what
    // already arrived is still handed out, and stop() also silences nats.js's heartbeat monitor.
    const overdue = setTimeout(() => messages.stop(), options.fetchExpiresMs + FETCH_END_GRACE_MS);
    const held: JsMsg[] = [];
    try {
      for await (const msg of messages) {
        if (signal.aborted) {
          held.push(msg);
          continue;
        }
        await options.process(msg);
        progress.handled = true;
      }
    } finally {
      clearTimeout(overdue);
      // Even when the request failed: a message already here still goes back without waiting.
      for (const msg of held) release(options, msg);
    }
  }
}

// Not nak'ed while the request is open: it could come straight back to the same request and use
// up a delivery attempt for nothing.
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
