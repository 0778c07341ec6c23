import type { ConsumerCounts } from '@tap/telemetry';

/** What a batch consumer (@tap/events' startBatchConsumer) counts, as far as /metrics reads it. */
interface BatchConsumerLike {
  stop(): Promise<void>;
  stats(): Omit<ConsumerCounts, 'failed'> & { readonly retried: number };
}

/**
 * A batch consumer as runConsumingService watches it: its counters on /metrics, a group offered
 * again after a `retry` outcome counted as a failure.
 */
export function watchedBatchConsumer(consumer: BatchConsumerLike): {
  stop(): Promise<void>;
  stats(): ConsumerCounts;
} {
  return {
    stats: () => {
      const stats = consumer.stats();
      return { ...stats, failed: stats.retried };
    },
    stop: () => consumer.stop(),
  };
}
