import { describe, expect, it } from '@jest/globals';
import { createReadModelCache } from './read-model-cache.js';

function source(initial: { tier: string; version: number }) {
  const state = { ...initial, tierLoads: 0, usageLoads: 0 };
  let clock = 0;
  const cache = createReadModelCache({
    loadTier: () => {
      state.tierLoads += 1;
      return Promise.resolve(state.tier);
    },
    loadUsage: () => {
      state.usageLoads += 1;
      return Promise.resolve({ usage: `usage@${state.version}`, version: state.version });
    },
    ttlMs: 1_000,
    now: () => clock,
  });
  return { state, cache, advance: (ms: number) => (clock += ms) };
}

describe('the read-model cache', () => {
  it('serves a tenant from memory within the TTL and loads again after it', async () => {
    const { state, cache, advance } = source({ tier: 'CORE', version: 1 });
    await cache.view('t');
    await cache.view('t');
    expect(state.usageLoads).toBe(1);
    state.tier = 'ENTERPRISE';
    advance(1_001);
    expect((await cache.view('t')).tier).toBe('ENTERPRISE');
    expect(state.usageLoads).toBe(2);
  });

  it('never serves a version older than one written or told about, even inside the TTL', async () => {
    const { state, cache } = source({ tier: 'CORE', version: 1 });
    expect((await cache.view('t')).version).toBe(1);
    state.version = 2;
    cache.changed('t', 2);
    expect((await cache.view('t')).version).toBe(2);
  });

  it('does not keep a load that raced a write', async () => {
    const { state, cache } = source({ tier: 'CORE', version: 1 });
    const racing = cache.view('t');
    state.version = 2;
    cache.changed('t', 2);
    expect((await racing).version).toBeGreaterThanOrEqual(1);
    expect((await cache.view('t')).version).toBe(2);
  });

  it('drops the view on a tier change (no version)', async () => {
    const { state, cache } = source({ tier: 'CORE', version: 1 });
    await cache.view('t');
    state.tier = 'SUPPLIER_PLUS';
    cache.changed('t');
    expect((await cache.view('t')).tier).toBe('SUPPLIER_PLUS');
  });
});
