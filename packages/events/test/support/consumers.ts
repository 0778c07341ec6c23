import { randomBytes } from 'node:crypto';
import type { StoredMsg } from '@nats-io/jetstream';
import type { ProductEvent } from '@tap/contracts';
import {
  startDurableConsumer,
  tenantEventsFilter,
  type ConsumerErrorReport,
  type DeliveryContext,
  type DurableConsumer,
  type DurableConsumerOptions,
  type InvalidMessageReport,
} from '../../src/index.js';
import type { EventsTestBed } from './nats.js';

/** What a consumer under test saw, in order. */
export interface Recorder {
  readonly deliveries: { event: ProductEvent; delivery: DeliveryContext }[];
  readonly invalid: InvalidMessageReport[];
  readonly errors: { error: unknown; report: ConsumerErrorReport }[];
}

export function recorder(): Recorder {
  return { deliveries: [], invalid: [], errors: [] };
}

/** A durable name no other test uses. */
export function uniqueDurable(): string {
  return `d_${randomBytes(4).toString('hex')}`;
}

/**
 * Starts a consumer over one tenant's events, recording into `seen`; a test's own options win.
 * Every consumer started here is stopped by stopAll().
 */
export function consumerStarter(bed: EventsTestBed) {
  const started: DurableConsumer[] = [];
  return {
    async start(
      tenantId: string,
      seen: Recorder,
      options: Partial<DurableConsumerOptions> & Pick<DurableConsumerOptions, 'durableName'>,
    ): Promise<DurableConsumer> {
      const consumer = await startDurableConsumer(bed.js, bed.jsm, {
        streamName: bed.streamName,
        subjectPrefix: bed.subjectPrefix,
        filterSubjects: [tenantEventsFilter(tenantId, bed.subjectPrefix)],
        handler: (event, delivery) => {
          seen.deliveries.push({ event, delivery });
          return Promise.resolve();
        },
        onInvalid: (report) => seen.invalid.push(report),
        onError: (error, report) => seen.errors.push({ error, report }),
        retryBackoff: { initialMs: 50, maxMs: 200 },
        ...options,
      });
      started.push(consumer);
      return consumer;
    },
    async stopAll(): Promise<void> {
      await Promise.all(started.map((consumer) => consumer.stop()));
    },
  };
}

/** True once the server holds nothing for `durable`: everything delivered was acked (or termed). */
export async function settled(bed: EventsTestBed, durable: string): Promise<boolean> {
  const info = await bed.jsm.consumers.info(bed.streamName, durable);
  return info.num_ack_pending === 0 && info.num_pending === 0;
}

/** The dead letters stored on `subject`, oldest first. */
export async function deadLetters(bed: EventsTestBed, subject: string): Promise<StoredMsg[]> {
  const { state } = await bed.jsm.streams.info(bed.deadLetterStream);
  const found: StoredMsg[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq += 1) {
    const msg = await bed.jsm.streams.getMessage(bed.deadLetterStream, { seq }).catch(() => null);
    if (msg?.subject === subject) found.push(msg);
  }
  return found;
}
