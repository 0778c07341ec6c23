import type { Consumer, JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import {
  DEFAULT_BATCH_ACK_WAIT_MS,
  DEFAULT_BATCH_SIZE,
  DEFAULT_FETCH_EXPIRES_MS,
  DEFAULT_FLUSH_WINDOW_MS,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
} from '../../defaults.js';
import { checkFilterSubjects } from '../check-filters.js';
import { ensureDurableConsumer } from '../ensure-durable-consumer.js';
import { runPullLoop } from '../pull-loop.js';
import { collectBatch } from './collect-batch.js';
import { handBack, handleBatch, type BatchCounters, type BatchSettings } from './handle-batch.js';
import { MessageQueue } from './message-queue.js';
import { createOwnership } from './ownership.js';
import type { BatchConsumer, BatchConsumerOptions } from './types.js';

// Redeliveries are not how a batch consumer retries (it retries a tenant in process), so the
// server never gives up on a message by itself: a cap there would drop events silently.
const UNLIMITED_DELIVERIES = -1;

/**
 * Starts a batched durable consumer: messages are pulled into batches (up to `batchSize`, or
 * what arrived within `flushWindowMs` of the first), checked against the contract, grouped by
 * tenant in stream order and handed to `handleBatch`, which writes each tenant once. Acks follow
 * the tenant's outcome; invalid, oversized and rejected messages are dead-lettered and acked; a
 * tenant whose write failed is retried in process before the next batch is taken. One batch is
 * in flight at a time, and with a `lease` only its holder pulls (see ownership.ts).
 */
export async function startBatchConsumer(
  js: JetStreamClient,
  jsm: JetStreamManager,
  options: BatchConsumerOptions,
): Promise<BatchConsumer> {
  const filterSubjects = options.filterSubjects ?? [];
  checkFilterSubjects(options.durableName, options.subjectPrefix, filterSubjects);
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  const flushWindowMs = options.flushWindowMs ?? DEFAULT_FLUSH_WINDOW_MS;
  const ackWaitMs = options.ackWaitMs ?? DEFAULT_BATCH_ACK_WAIT_MS;
  const open = async (): Promise<Consumer> => {
    await ensureDurableConsumer(jsm, {
      streamName: options.streamName,
      durableName: options.durableName,
      filterSubjects,
      maxDeliver: UNLIMITED_DELIVERIES,
      ackWaitMs,
    });
    return js.consumers.get(options.streamName, options.durableName);
  };
  const consumer = await open();

  const counters: BatchCounters = {
    batches: 0,
    delivered: 0,
    redelivered: 0,
    applied: 0,
    invalid: 0,
    deadLettered: 0,
    retried: 0,
    released: 0,
  };
  const settings: BatchSettings = {
    durableName: options.durableName,
    subjectPrefix: options.subjectPrefix,
    maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
    backoff: {
      initialMs: options.retryBackoff?.initialMs ?? DEFAULT_RETRY_INITIAL_MS,
      maxMs: options.retryBackoff?.maxMs ?? DEFAULT_RETRY_MAX_MS,
    },
    handleBatch: options.handleBatch,
    onInvalid: options.onInvalid,
    onError: options.onError,
    onBatch: options.onBatch,
    deadLetter: options.deadLetter
      ? { js, subject: options.deadLetter.subject, consumer: options.durableName }
      : undefined,
    counters,
  };
  const ownership = createOwnership({
    lease: options.lease,
    renewMs: options.leaseRenewMs ?? Math.max(100, Math.floor((options.lease?.ttlMs ?? 3_000) / 3)),
    ackWaitMs,
    ackPending: async () =>
      (await jsm.consumers.info(options.streamName, options.durableName)).num_ack_pending,
    onError: options.onError,
  });

  const stop = new AbortController();
  const runSession = async (signal: AbortSignal): Promise<boolean> => {
    const queue = new MessageQueue(batchSize * 2);
    const pump = runPullLoop({
      consumer,
      reopen: open,
      batch: batchSize,
      fetchExpiresMs: DEFAULT_FETCH_EXPIRES_MS,
      process: async (msg: JsMsg) => {
        while (queue.room() <= 0 && !signal.aborted) await queue.changed(DEFAULT_FETCH_EXPIRES_MS);
        // Even when the term ended meanwhile: handed back below, once no pull request is open.
        queue.push(msg);
      },
      onError: options.onError,
      signal,
    }).finally(() => queue.close());
    for (;;) {
      const msgs = await collectBatch(queue, batchSize, flushWindowMs, signal);
      if (msgs.length === 0) break;
      await handleBatch(settings, msgs, signal);
      queue.settled(msgs.length);
    }
    await pump;
    for (const msg of queue.drain()) handBack(settings, msg);
    // The pull loop ends by itself only when the connection is closed: nothing left to pull from.
    return signal.aborted;
  };

  const loop = (async () => {
    while (!stop.signal.aborted) {
      const term = await ownership.acquire(stop.signal);
      if (!term) break;
      const goOn = await runSession(term.signal);
      term.end();
      if (!goOn) break;
    }
    await ownership.release();
  })();

  return {
    durableName: options.durableName,
    owning: ownership.owning,
    stop() {
      stop.abort();
      return loop;
    },
    stats: () => ({ ...counters }),
  };
}
