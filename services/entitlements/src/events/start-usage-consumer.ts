import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  ensureEventStream,
  startBatchConsumer,
  type BatchConsumer,
  type BatchHandler,
  type ConsumerLease,
} from '@tap/events';
import type { EventsConfig } from '../config.js';

export interface ConsumerLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface RejectedRecorder {
  record(event: { id: string; reason: string; detail: string; subject: string }, now: Date): Promise<void>;
}

/** Batching and ownership settings of the usage consumer (tests shorten them). */
export interface UsageConsumerOptions {
  readonly retryBackoff?: { initialMs: number; maxMs: number };
  /** Only its holder counts (several replicas); without it, run one replica. */
  readonly lease?: ConsumerLease;
  readonly batchSize?: number;
  readonly flushWindowMs?: number;
  readonly ackWaitMs?: number;
  /** Wraps the batch handler (instrumentation; tests use it to stop a process between write and ack). */
  readonly decorate?: (handler: BatchHandler) => BatchHandler;
}

/**
 * Ensures the event stream and starts the batched usage-counter consumer on `nc`. It takes every
 * kind (nats-server 2.9 allows one filter subject) and ignores those that count nothing. A
 * message that is not a valid event is logged, recorded in `rejected_events` and acked.
 */
export async function startUsageConsumer(
  nc: NatsConnection,
  options: UsageConsumerOptions & {
    events: EventsConfig;
    handleBatch: BatchHandler;
    rejected: RejectedRecorder;
    logger: ConsumerLogger;
    now: () => Date;
  },
): Promise<BatchConsumer> {
  const { streamName, subjectPrefix, consumerName, duplicateWindowMs } = options.events;
  const { logger, rejected } = options;
  const jsm = await jetstreamManager(nc);
  await ensureEventStream(jsm, { streamName, subjectPrefix, duplicateWindowMs });
  return startBatchConsumer(jetstream(nc), jsm, {
    streamName,
    durableName: consumerName,
    subjectPrefix,
    handleBatch: options.decorate ? options.decorate(options.handleBatch) : options.handleBatch,
    ...(options.retryBackoff ? { retryBackoff: options.retryBackoff } : {}),
    ...(options.lease ? { lease: options.lease } : {}),
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    ...(options.flushWindowMs ? { flushWindowMs: options.flushWindowMs } : {}),
    ...(options.ackWaitMs ? { ackWaitMs: options.ackWaitMs } : {}),
    onInvalid: (report) => {
      logger.warn({ ...report }, 'invalid event recorded and acknowledged');
      const record = {
        id: `${streamName}:${report.streamSeq}`,
        reason: report.reason,
        detail: report.errors.join('; ').slice(0, 500),
        subject: report.subject,
      };
      // onInvalid cannot wait; the log line above is the record if this write fails.
      void rejected
        .record(record, options.now())
        .catch((error: unknown) => logger.error({ err: error }, 'could not record an invalid event'));
    },
    onError: (error, report) => {
      if (report.willRetry)
        logger.warn({ err: error, ...report }, 'usage events not counted yet; will retry');
      else logger.error({ err: error, ...report }, 'usage consumer error');
    },
  });
}
