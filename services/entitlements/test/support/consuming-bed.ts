import type { BatchConsumer, EventPublisher } from '@tap/events';
import { publisherFor } from './events.js';
import { openTestBed, type TestBed } from './test-bed.js';

/** A test bed with its usage consumer running (retrying quickly) and the contract's publisher onto its stream. */
export interface ConsumingBed {
  readonly bed: TestBed;
  readonly consumer: BatchConsumer;
  readonly publisher: EventPublisher;
  /** Stops the consumer, then closes the bed. */
  close(): Promise<void>;
}

export async function openConsumingBed(name: string): Promise<ConsumingBed> {
  const bed = await openTestBed(name);
  const consumer = await bed.app.startConsumer(bed.nc, { retryBackoff: { initialMs: 50, maxMs: 200 } });
  return {
    bed,
    consumer,
    publisher: publisherFor(bed),
    async close() {
      await consumer.stop();
      await bed.close();
    },
  };
}
