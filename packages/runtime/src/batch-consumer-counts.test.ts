import { describe, expect, it } from '@jest/globals';
import { watchedBatchConsumer } from './batch-consumer-counts.js';

describe('watchedBatchConsumer', () => {
  it('reports a batch consumer’s counters, its retried groups as failures, and stops it', async () => {
    let stopped = false;
    const counts = { delivered: 9, applied: 6, invalid: 1, redelivered: 2, deadLettered: 1, retried: 3 };
    const watched = watchedBatchConsumer({
      stats: () => ({ ...counts, batches: 4, released: 0 }),
      stop: async () => {
        stopped = true;
      },
    });
    expect(watched.stats()).toMatchObject({ ...counts, failed: 3 });
    await watched.stop();
    expect(stopped).toBe(true);
  });
});
