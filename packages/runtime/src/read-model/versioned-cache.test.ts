import { describe, expect, it } from '@jest/globals';
import { createVersionedCache } from './versioned-cache.js';

function source(initial: { version: number }, maxEntries?: number) {
  const state = { ...initial, loads: 0 };
  let clock = 0;
  const cache = createVersionedCache<{ body: string; version: number }>({
    load: (key) => {
      state.loads += 1;
      return Promise.resolve({ body: `${key}@${state.version}`, version: state.version });
    },
    versionOf: (view) => view.version,
    ttlMs: 1_000,
    ...(maxEntries === undefined ? {} : { maxEntries }),
    now: () => clock,
  });
  return { state, cache, advance: (ms: number) => (clock += ms) };
}

describe('the versioned read-model cache', () => {
  it('serves a key from memory within the TTL and loads again after it', async () => {
    const { state, cache, advance } = source({ version: 1 });
    await cache.view('t');
    await cache.view('t');
    expect(state.loads).toBe(1);
    state.version = 2;
    advance(1_001);
    expect((await cache.view('t')).version).toBe(2);
    expect(state.loads).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const { state, cache } = source({ version: 1 });
    await Promise.all([cache.view('t'), cache.view('t'), cache.view('t')]);
    expect(state.loads).toBe(1);
  });

  it('never serves a version older than one written or told about, even inside the TTL', async () => {
    const { state, cache } = source({ version: 1 });
    expect((await cache.view('t')).version).toBe(1);
    state.version = 2;
    cache.changed('t', 2);
    expect((await cache.view('t')).version).toBe(2);
  });

  it('ignores a notice older than what it holds', async () => {
    const { state, cache } = source({ version: 3 });
    await cache.view('t');
    cache.changed('t', 2);
    expect((await cache.view('t')).version).toBe(3);
    expect(state.loads).toBe(2);
  });

  it('does not keep a load that raced a write', async () => {
    const { state, cache } = source({ version: 1 });
    const racing = cache.view('t');
    state.version = 2;
    cache.changed('t', 2);
    expect((await racing).version).toBeGreaterThanOrEqual(1);
    expect((await cache.view('t')).version).toBe(2);
  });

  it('drops the view on a change without a version', async () => {
    const { state, cache } = source({ version: 1 });
    await cache.view('t');
    cache.changed('t');
    await cache.view('t');
    expect(state.loads).toBe(2);
  });

  it('holds at most maxEntries views and evicts the least recently used', async () => {
    const { state, cache } = source({ version: 1 }, 2);
    await cache.view('a');
    await cache.view('b');
    await cache.view('a'); // a is now the most recent
    await cache.view('c'); // b goes
    expect(cache.size()).toBe(2);
    expect(state.loads).toBe(3);
    await cache.view('a');
    expect(state.loads).toBe(3);
    await cache.view('b');
    expect(state.loads).toBe(4);
  });
});
