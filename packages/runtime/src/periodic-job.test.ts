import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { startPeriodicJob } from './periodic-job.js';

const quiet = { info: () => undefined, warn: () => undefined };

describe('startPeriodicJob', () => {
  it('runs passes one at a time, goes on after a failure, and stop waits for the pass in progress', async () => {
    let inside = 0;
    let most = 0;
    let passes = 0;
    const warnings: string[] = [];
    const job = startPeriodicJob({
      name: 'test-job',
      intervalMs: 5,
      logger: { ...quiet, warn: (_o, message) => void warnings.push(message) },
      run: async () => {
        passes += 1;
        inside += 1;
        most = Math.max(most, inside);
        await sleep(15);
        inside -= 1;
        if (passes === 1) throw new Error('first pass fails');
        return passes;
      },
    });
    await sleep(80);
    await job.stop();
    const after = passes;
    await sleep(30);
    expect(most).toBe(1);
    expect(after).toBeGreaterThanOrEqual(2);
    expect(passes).toBe(after);
    expect(inside).toBe(0);
    expect(warnings).toEqual(['test-job pass failed']);
  });
});
