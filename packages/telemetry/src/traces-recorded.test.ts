import { describe, expect, it } from '@jest/globals';
import { installTestTracing } from './test-tracing.js';
import { tracesRecorded } from './traces-recorded.js';

describe('tracesRecorded', () => {
  it('is false without a tracer provider and true while one is registered', async () => {
    expect(tracesRecorded()).toBe(false);
    const tracing = installTestTracing();
    try {
      expect(tracesRecorded()).toBe(true);
    } finally {
      await tracing.uninstall();
    }
    expect(tracesRecorded()).toBe(false);
  });
});
