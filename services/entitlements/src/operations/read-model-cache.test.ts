import { describe, expect, it } from '@jest/globals';
import { createReadModelCache } from './read-model-cache.js';

function counted() {
  const loads = { tier: 0, usage: 0 };
  const state = { tierCode: 'FREE', version: 1 };
  const cache = createReadModelCache<{ tierCode: string }, { count: number }>({
    loadTier: () => {
      loads.tier += 1;
      return Promise.resolve({ tierCode: state.tierCode });
    },
    loadUsage: () => {
      loads.usage += 1;
      return Promise.resolve({ usage: { count: state.version }, version: state.version });
    },
    ttlMs: 60_000,
  });
  return { loads, state, cache };
}

describe("entitlements' read model", () => {
  it('answers a tier without loading the usage document', async () => {
    const { loads, cache } = counted();
    expect((await cache.tier('t')).tierCode).toBe('FREE');
    await cache.tier('t');
    expect(loads).toEqual({ tier: 1, usage: 0 });
  });

  it('keeps the tier across a usage write, and drops both on a change without a version', async () => {
    const { loads, state, cache } = counted();
    await cache.view('t');
    state.version = 2;
    cache.changed('t', 2);
    expect((await cache.view('t')).version).toBe(2);
    expect(loads).toEqual({ tier: 1, usage: 2 });
    state.tierCode = 'ENTERPRISE';
    cache.changed('t');
    expect((await cache.view('t')).tier.tierCode).toBe('ENTERPRISE');
    expect(loads).toEqual({ tier: 2, usage: 3 });
  });

  it('hands out the same view object while neither half changed (answer memos compare by identity)', async () => {
    const { cache } = counted();
    const first = await cache.view('t');
    expect(await cache.view('t')).toBe(first);
    cache.changed('t', 2);
    expect(await cache.view('t')).not.toBe(first);
  });
});
