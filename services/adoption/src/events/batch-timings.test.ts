import { describe, expect, it } from '@jest/globals';
import { createBatchTimings, timed } from './batch-timings.js';

describe('batch timings', () => {
  it('closes a batch with its stages, its in-process share and what came after the handler', () => {
    const timings = createBatchTimings();
    timings.add('loadMs', 3);
    timings.add('writeMs', 10);
    timings.add('writeMs', 5);
    timings.add('rawLogMs', 20);
    timings.group(30);
    timings.handler(55);
    timings.finish({ messages: 400, tenants: 2, waitedMs: 160, durationMs: 60 });

    expect(timings.recent()).toEqual([
      expect.objectContaining({
        messages: 400,
        tenants: 2,
        waitedMs: 160,
        loadMs: 3,
        writeMs: 15,
        rawLogMs: 20,
        inProcessMs: 12,
        handlerMs: 55,
        settleMs: 5,
        totalMs: 60,
      }),
    ]);
    // The next batch starts from nothing.
    timings.finish({ messages: 1, tenants: 1, waitedMs: 0, durationMs: 1 });
    expect(timings.recent()[1]).toEqual(expect.objectContaining({ writeMs: 0, handlerMs: 0, settleMs: 1 }));
  });

  it('keeps only the latest batches', () => {
    const timings = createBatchTimings(3);
    for (let i = 1; i <= 5; i += 1) timings.finish({ messages: i, tenants: 1, waitedMs: 0, durationMs: 1 });
    expect(timings.recent().map((t) => t.messages)).toEqual([3, 4, 5]);
  });

  it('times a call that fails too, and passes its failure on', async () => {
    const timings = createBatchTimings();
    await expect(
      timed(timings, 'writeMs', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('write lost');
      }),
    ).rejects.toThrow('write lost');
    timings.finish({ messages: 1, tenants: 1, waitedMs: 0, durationMs: 10 });
    expect(timings.recent()[0]?.writeMs).toBeGreaterThan(0);
  });
});
