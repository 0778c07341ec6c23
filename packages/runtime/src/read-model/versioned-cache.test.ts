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

  it('shares a load still in flight even once it is older than the TTL (a slow store is not asked again)', async () => {
    let loads = 0;
    let clock = 0;
    let release: () => void = () => undefined;
    const cache = createVersionedCache<{ version: number }>({
      load: async () => {
        loads += 1;
        await new Promise<void>((resolve) => (release = resolve));
        return { version: 1 };
      },
      versionOf: (view) => view.version,
      ttlMs: 1_000,
      now: () => clock,
    });
    const first = cache.view('t');
    clock = 5_000;
    const second = cache.view('t');
    expect(loads).toBe(1);
    release();
    expect(await Promise.all([first, second])).toEqual([{ version: 1 }, { version: 1 }]);
  });

  describe('refresh ahead', () => {
    /** Lets the promise callbacks of a background reload run. */
    const settle = () => new Promise((resolve) => setImmediate(resolve));

    it('serves a busy key from memory late in its TTL and reloads it once behind the reads', async () => {
      const { state, cache, advance } = source({ version: 1 });
      await cache.view('t');
      state.version = 2;
      advance(700);
      expect((await cache.view('t')).version).toBe(1);
      expect(state.loads).toBe(1);
      advance(100); // past three quarters of the TTL: still served from memory, one reload starts
      const served = await Promise.all([cache.view('t'), cache.view('t'), cache.view('t')]);
      expect(served.map((v) => v.version)).toEqual([1, 1, 1]);
      expect(state.loads).toBe(2);
      await settle();
      expect((await cache.view('t')).version).toBe(2);
      // The reloaded view starts its own TTL: a read 900 ms later (1,700 after the first load) is
      // served from memory without waiting (and starts the next reload).
      advance(900);
      await cache.view('t');
      expect(state.loads).toBe(3);
    });

    it('drops a reload that raced a change', async () => {
      let release: () => void = () => undefined;
      let version = 1;
      let clock = 0;
      const cache = createVersionedCache<{ version: number }>({
        load: async () => {
          const answer = { version };
          if (version === 1 && clock > 0) await new Promise<void>((resolve) => (release = resolve));
          return answer;
        },
        versionOf: (view) => view.version,
        ttlMs: 1_000,
        now: () => clock,
      });
      await cache.view('t');
      clock = 800;
      await cache.view('t'); // starts a reload that will answer version 1 late
      version = 2;
      cache.changed('t', 2);
      expect((await cache.view('t')).version).toBe(2);
      release();
      await settle();
      expect((await cache.view('t')).version).toBe(2);
    });

    it('never serves a view older than the TTL when the reload fails', async () => {
      let fail = false;
      let loads = 0;
      let clock = 0;
      const cache = createVersionedCache<{ version: number }>({
        load: () => {
          loads += 1;
          return fail ? Promise.reject(new Error('store down')) : Promise.resolve({ version: loads });
        },
        versionOf: (view) => view.version,
        ttlMs: 1_000,
        now: () => clock,
      });
      await cache.view('t');
      fail = true;
      clock = 800;
      expect((await cache.view('t')).version).toBe(1); // the failed reload is behind this read
      await settle();
      clock = 1_001;
      await expect(cache.view('t')).rejects.toThrow('store down');
      expect(loads).toBe(3);
    });
  });

  describe('while the change notices are heard', () => {
    function heard() {
      const state = { version: 1, loads: 0 };
      let clock = 0;
      let release: (() => void) | undefined;
      const cache = createVersionedCache<{ version: number }>({
        load: async () => {
          state.loads += 1;
          const version = state.version;
          if (release === undefined) return { version };
          await new Promise<void>((resolve) => (release = resolve));
          return { version };
        },
        versionOf: (view) => view.version,
        ttlMs: 1_000,
        heardTtlMs: 60_000,
        now: () => clock,
      });
      return {
        state,
        cache,
        advance: (ms: number) => (clock += ms),
        holdLoads: () => (release = () => undefined),
        releaseLoad: () => release?.(),
      };
    }

    it('keeps a view for the heard TTL, and for the short one again once the notices stop', async () => {
      const { state, cache, advance } = heard();
      cache.setListening(true);
      await cache.view('t');
      advance(30_000);
      await cache.view('t');
      expect(state.loads).toBe(1);
      cache.setListening(false);
      await cache.view('t');
      advance(1_001);
      await cache.view('t');
      expect(state.loads).toBe(3);
    });

    it('forgets every view at each switch (a notice may have been missed in the gap)', async () => {
      const { state, cache } = heard();
      cache.setListening(true);
      await cache.view('a');
      await cache.view('b');
      state.version = 2;
      cache.setListening(false);
      cache.setListening(true);
      expect((await cache.view('a')).version).toBe(2);
      expect((await cache.view('b')).version).toBe(2);
      expect(state.loads).toBe(4);
    });

    it('does not keep a load that was in flight across a switch', async () => {
      const { state, cache, holdLoads, releaseLoad } = heard();
      cache.setListening(true);
      holdLoads();
      const inFlight = cache.view('t');
      cache.setListening(false);
      cache.setListening(true);
      releaseLoad();
      await inFlight;
      expect(cache.size()).toBe(0);
      expect(state.loads).toBe(1);
    });

    it('keeps the short TTL when built without a heard one', async () => {
      const { state, cache, advance } = source({ version: 1 });
      cache.setListening(true);
      await cache.view('t');
      advance(1_001);
      await cache.view('t');
      expect(state.loads).toBe(2);
    });
  });
});
