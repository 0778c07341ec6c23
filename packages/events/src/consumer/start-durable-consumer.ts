import type { Consumer, JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import {
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_FETCH_EXPIRES_MS,
  DEFAULT_PULL_BATCH,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
} from '../defaults.js';
import { isPermanentEventError } from '../errors.js';
import { checkFilterSubjects } from './check-filters.js';
import { ensureDurableConsumer } from './ensure-durable-consumer.js';
import { createMessageProcessor, type Counters } from './process-message.js';
import { runPullLoop } from './pull-loop.js';
import type { DurableConsumer, DurableConsumerOptions } from './types.js';

/**
 * Creates (idempotently) the durable pull consumer `durableName` on `streamName` and starts
 * handling its messages one at a time: each is decoded and checked against the contract, handed
 * to `handler` inside a CONSUMER span continuing the producer's trace, and acked only once the
 * handler resolved. Invalid messages are reported, dead-lettered when configured, and acked;
 * handler failures are redelivered with a growing delay up to `maxDeliver`.
 */
export async function startDurableConsumer(
  js: JetStreamClient,
  jsm: JetStreamManager,
  options: DurableConsumerOptions,
): Promise<DurableConsumer> {
  const filterSubjects = options.filterSubjects ?? [];
  checkFilterSubjects(options.durableName, options.subjectPrefix, filterSubjects);
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const open = async (): Promise<Consumer> => {
    await ensureDurableConsumer(jsm, {
      streamName: options.streamName,
      durableName: options.durableName,
      filterSubjects,
      maxDeliver,
      ackWaitMs: options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
    });
    return js.consumers.get(options.streamName, options.durableName);
  };
  // Opened here, not in the loop, so that a wrong configuration fails the start.
  const consumer = await open();

  const counters: Counters = {
    delivered: 0,
    applied: 0,
    invalid: 0,
    failed: 0,
    redelivered: 0,
    deadLettered: 0,
  };
  const process = createMessageProcessor({
    durableName: options.durableName,
    subjectPrefix: options.subjectPrefix,
    maxDeliver,
    backoff: {
      initialMs: options.retryBackoff?.initialMs ?? DEFAULT_RETRY_INITIAL_MS,
      maxMs: options.retryBackoff?.maxMs ?? DEFAULT_RETRY_MAX_MS,
    },
    handler: options.handler,
    isPermanent: options.isPermanent ?? isPermanentEventError,
    onInvalid: options.onInvalid,
    onError: options.onError,
    deadLetter: options.deadLetter
      ? { js, subject: options.deadLetter.subject, consumer: options.durableName }
      : undefined,
    counters,
  });

  const abort = new AbortController();
  const loop = runPullLoop({
    consumer,
    reopen: open,
    batch: options.pullBatch ?? DEFAULT_PULL_BATCH,
    fetchExpiresMs: DEFAULT_FETCH_EXPIRES_MS,
    process,
    onError: options.onError,
    signal: abort.signal,
  });

  return {
    durableName: options.durableName,
    stop() {
      abort.abort();
      return loop;
    },
    stats: () => ({ ...counters }),
  };
}
