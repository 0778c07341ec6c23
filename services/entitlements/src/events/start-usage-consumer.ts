import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  ensureEventStream,
  startDurableConsumer,
  type DurableConsumer,
  type EventHandler,
} from '@tap/events';
import type { EventsConfig } from '../config.js';
import { entitlementErrors } from '../domain/index.js';
import type { RejectedEventsRepository } from '../store/rejected-events-repository.js';
import { isPermanentUsageError } from './usage-event-handler.js';

export interface ConsumerLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Ensures the event stream and starts the durable usage-counter consumer on `nc`. It takes every
 * kind (nats-server 2.9 allows one filter subject) and ignores those that count nothing. A
 * message that is not a valid event is logged, recorded in `rejected_events` and acked.
 */
export async function startUsageConsumer(
  nc: NatsConnection,
  options: {
    events: EventsConfig;
    handler: EventHandler;
    rejected: RejectedEventsRepository;
    logger: ConsumerLogger;
    now: () => Date;
    retryBackoff?: { initialMs: number; maxMs: number };
  },
): Promise<DurableConsumer> {
  const { streamName, subjectPrefix, consumerName, duplicateWindowMs } = options.events;
  const { logger, rejected } = options;
  const jsm = await jetstreamManager(nc);
  await ensureEventStream(jsm, { streamName, subjectPrefix, duplicateWindowMs });
  return startDurableConsumer(jetstream(nc), jsm, {
    streamName,
    durableName: consumerName,
    subjectPrefix,
    handler: options.handler,
    isPermanent: isPermanentUsageError,
    ...(options.retryBackoff ? { retryBackoff: options.retryBackoff } : {}),
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
      if (report.willRetry) logger.warn({ err: error, ...report }, 'usage event not counted yet; will retry');
      else if (entitlementErrors.is(error, 'INVALID_EVENT'))
        logger.warn({ err: error, ...report }, 'invalid usage event recorded and acknowledged');
      else logger.error({ err: error, ...report }, 'usage event given up on');
    },
  });
}
