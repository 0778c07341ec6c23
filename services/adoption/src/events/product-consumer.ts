import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  deadLetterSubject,
  ensureDeadLetterStream,
  ensureEventStream,
  startBatchConsumer,
  type BatchConsumer,
  type ConsumerLease,
  type RetryBackoff,
} from '@tap/events';
import type { AdoptionConfig } from '../config.js';
import type { IngestDeps } from '../operations/ingest-product-events.js';
import { productBatchHandler, type BatchHandlerLogger } from './batch-handler.js';
import { createBatchTimings, type BatchTiming } from './batch-timings.js';

/** The stream that keeps dead letters (`deadletter.>`), shared by the services' consumers. */
export const DEAD_LETTER_STREAM = 'DEADLETTER';

/**
 * Messages per batch. A batch is written tenant by tenant (TENANT_WRITE_CONCURRENCY at a time),
 * and all of it must be acked within the consumer's ack wait (15 s) or the server redelivers it
 * while it is still being written. Each batch pays fixed costs per tenant (its document, a summary
 * part, the raw log), so small batches cap a busy tenant's rate; a large one must still be
 * written well inside the ack wait, which holds only while FerretDB finds documents by their `_id`
 * index (docs/foundation.md, "FerretDB's limits"; the measurements: docs/adoption-model.md §22).
 */
export const DEFAULT_ADOPTION_BATCH_SIZE = 500;

/**
 * How long a batch waits to fill after its first message. Batches clock themselves: a message
 * that arrives while a batch is being written waits for it anyway, and the next batch takes what
 * came meanwhile at once, so a busy tenant's batches still grow with the backlog and the window
 * only decides how long an event arriving at an idle consumer waits: @tap/events' default (150 ms)
 * would be most of the time from publish to visible.
 */
export const DEFAULT_ADOPTION_FLUSH_WINDOW_MS = 50;

/** How the milestone detector consumes (see docs/adoption-model.md, "Batched ingestion"). */
export interface ConsumerOptions {
  readonly retryBackoff?: Partial<RetryBackoff>;
  /** The single-owner lease; without it run one replica (main.ts passes a Redis lease). */
  readonly lease?: ConsumerLease;
  readonly batchSize?: number;
  readonly flushWindowMs?: number;
  readonly ackWaitMs?: number;
}

/** The milestone detector as started: a batch consumer that also says where its batches' time went. */
export interface AdoptionConsumer extends BatchConsumer {
  /** The latest batches' timings, oldest first (see events/batch-timings.ts). */
  batchTimings(): readonly BatchTiming[];
  /**
   * Error reports since the start, by stage (`pull`: the pull loop restarted; `handler`: a retry),
   * with the latest one's message.
   */
  errorReports(): Readonly<Record<string, { readonly count: number; readonly last: string }>>;
}

/** What the milestone detector is started with: the ingest use case's deps and where it listens. */
export interface ProductConsumerDeps {
  readonly events: AdoptionConfig['events'];
  /** The domain stream the outbox relays to: ensured here too, so no publish waits for its consumer. */
  readonly domain?: AdoptionConfig['domain'];
  readonly ingest: IngestDeps;
  readonly logger: BatchHandlerLogger;
}

/**
 * Ensures the event stream and the dead-letter stream, and starts the durable milestone detector
 * on `nc`: every batch goes through the ingest use case (operations/ingest-product-events.ts),
 * which stores each tenant's projection with its events.
 */
export async function startProductConsumer(
  nc: NatsConnection,
  deps: ProductConsumerDeps,
  options: ConsumerOptions = {},
): Promise<AdoptionConsumer> {
  const { streamName, subjectPrefix, consumerName, duplicateWindowMs } = deps.events;
  const { logger } = deps;
  const jsm = await jetstreamManager(nc);
  await ensureEventStream(jsm, { streamName, subjectPrefix, duplicateWindowMs });
  if (deps.domain) await ensureEventStream(jsm, { ...deps.domain, duplicateWindowMs });
  // What can never be applied is kept for inspection, not only logged.
  await ensureDeadLetterStream(jsm, { streamName: DEAD_LETTER_STREAM });
  let stopping = false;
  const timings = createBatchTimings();
  const errorReports: Record<string, { count: number; last: string }> = {};
  const consumer = await startBatchConsumer(jetstream(nc), jsm, {
    streamName,
    durableName: consumerName,
    subjectPrefix,
    handleBatch: productBatchHandler({ ...deps.ingest, logger, stopping: () => stopping, timings }),
    onBatch: (report) => timings.finish(report),
    deadLetter: { subject: deadLetterSubject(consumerName) },
    ...(options.retryBackoff ? { retryBackoff: options.retryBackoff } : {}),
    ...(options.lease ? { lease: options.lease } : {}),
    batchSize: options.batchSize ?? DEFAULT_ADOPTION_BATCH_SIZE,
    flushWindowMs: options.flushWindowMs ?? DEFAULT_ADOPTION_FLUSH_WINDOW_MS,
    ...(options.ackWaitMs ? { ackWaitMs: options.ackWaitMs } : {}),
    onInvalid: (report) => logger.warn({ ...report }, 'invalid event dead-lettered and acknowledged'),
    onError: (error, report) => {
      errorReports[report.stage] = {
        count: (errorReports[report.stage]?.count ?? 0) + 1,
        last: error instanceof Error ? error.message : String(error),
      };
      logger.warn({ err: error, ...report }, 'event batch not applied yet; will retry');
    },
  });
  return {
    durableName: consumer.durableName,
    owning: () => consumer.owning(),
    stats: () => consumer.stats(),
    batchTimings: () => timings.recent(),
    errorReports: () => structuredClone(errorReports),
    stop: async () => {
      stopping = true;
      await consumer.stop();
    },
  };
}
