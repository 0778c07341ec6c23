import { describe, expect, it } from '@jest/globals';
import { createAnswerCache, MAX_ANSWERS_PER_TENANT } from './answer-cache.js';

const body = (text: string): Buffer => Buffer.from(text);

function listeningCache(options: { reuseMs?: number; maxBytes?: number } = {}) {
  let clock = 1_000;
  const cache = createAnswerCache({ reuseMs: 1_000, ...options, now: () => clock });
  cache.setListening(true);
  return { cache, advance: (ms: number) => (clock += ms) };
}

describe('the gateway answer cache', () => {
  it('reuses an answer within the reuse time, then lets it go', () => {
    const { cache, advance } = listeningCache();
    cache.keep('t1', 'state', body('a'), cache.ticket());
    advance(999);
    expect(cache.get('t1', 'state')?.toString()).toBe('a');
    advance(1);
    expect(cache.get('t1', 'state')).toBeUndefined();
  });

  it("keeps an answer in memory of its own, not in a slab of Node's buffer pool", () => {
    const { cache } = listeningCache();
    const pooled = body('{"success":true}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    cache.keep('t1', 'state', pooled, cache.ticket());
    const kept = cache.get('t1', 'state');
    expect(kept?.buffer.byteLength).toBe(pooled.length);
    expect(kept?.toString()).toBe('{"success":true}');
  });

  it('counts the reuse time from before the service was asked', () => {
    const { cache, advance } = listeningCache();
    const ticket = cache.ticket();
    advance(600);
    cache.keep('t1', 'state', body('a'), ticket);
    advance(400);
    expect(cache.get('t1', 'state')).toBeUndefined();
  });

  it("drops a tenant's answers when it changes, and no other tenant's", () => {
    const { cache } = listeningCache();
    const ticket = cache.ticket();
    cache.keep('t1', 'state', body('a'), ticket);
    cache.keep('t1', 'coverage', body('b'), ticket);
    cache.keep('t2', 'state', body('c'), ticket);
    cache.changed('t1');
    expect(cache.get('t1', 'state')).toBeUndefined();
    expect(cache.get('t1', 'coverage')).toBeUndefined();
    expect(cache.get('t2', 'state')?.toString()).toBe('c');
  });

  it('never keeps an answer whose load began before a change of its tenant', () => {
    const { cache } = listeningCache();
    const before = cache.ticket();
    cache.changed('t1');
    cache.keep('t1', 'state', body('older than the change'), before);
    expect(cache.get('t1', 'state')).toBeUndefined();
    // A load begun after the change is kept; another tenant's change does not matter to it.
    const after = cache.ticket();
    cache.changed('t2');
    cache.keep('t1', 'state', body('new'), after);
    expect(cache.get('t1', 'state')?.toString()).toBe('new');
  });

  it('keys answers by tenant and key: a tenant never gets another one', () => {
    const { cache } = listeningCache();
    cache.keep('t1', 'risk-signals?limit=5', body('five'), cache.ticket());
    expect(cache.get('t2', 'risk-signals?limit=5')).toBeUndefined();
    expect(cache.get('t1', 'risk-signals?limit=6')).toBeUndefined();
    expect(cache.get('t1', 'risk-signals?limit=5')?.toString()).toBe('five');
  });

  it('keeps nothing and serves nothing while it cannot hear the notices', () => {
    const cache = createAnswerCache({ reuseMs: 1_000, now: () => 0 });
    cache.keep('t1', 'state', body('a'), cache.ticket());
    expect(cache.get('t1', 'state')).toBeUndefined();
    cache.setListening(true);
    const ticket = cache.ticket();
    cache.keep('t1', 'state', body('a'), ticket);
    expect(cache.get('t1', 'state')?.toString()).toBe('a');
    // A disconnect: what was kept goes, and a load begun before it is not kept after a reconnect.
    const inFlight = cache.ticket();
    cache.setListening(false);
    expect(cache.get('t1', 'state')).toBeUndefined();
    cache.setListening(true);
    cache.keep('t1', 'state', body('begun before the outage'), inFlight);
    expect(cache.get('t1', 'state')).toBeUndefined();
  });

  it('stays within its byte bound, least recently used first', () => {
    const { cache } = listeningCache({ maxBytes: 10 });
    const ticket = cache.ticket();
    cache.keep('t1', 'state', body('aaaa'), ticket);
    cache.keep('t2', 'state', body('bbbb'), ticket);
    expect(cache.get('t1', 'state')?.toString()).toBe('aaaa');
    cache.keep('t3', 'state', body('cccc'), ticket);
    expect(cache.get('t2', 'state')).toBeUndefined();
    expect(cache.get('t1', 'state')?.toString()).toBe('aaaa');
    expect(cache.get('t3', 'state')?.toString()).toBe('cccc');
    cache.keep('t4', 'state', body('too large to keep'), ticket);
    expect(cache.get('t4', 'state')).toBeUndefined();
  });

  it('keeps a bounded number of answers per tenant: one tenant never pushes the others out', () => {
    const { cache } = listeningCache();
    const ticket = cache.ticket();
    cache.keep('quiet', 'state', body('q'), ticket);
    for (let limit = 1; limit <= MAX_ANSWERS_PER_TENANT + 10; limit += 1)
      cache.keep('busy', `risk-signals:${limit}`, body(String(limit)), ticket);
    expect(cache.get('quiet', 'state')?.toString()).toBe('q');
    // The busy tenant's oldest went; its newest are kept.
    expect(cache.get('busy', 'risk-signals:1')).toBeUndefined();
    const newest = MAX_ANSWERS_PER_TENANT + 10;
    expect(cache.get('busy', `risk-signals:${newest}`)?.toString()).toBe(String(newest));
    const kept = Array.from({ length: newest }, (_, i) => cache.get('busy', `risk-signals:${i + 1}`));
    expect(kept.filter((b) => b !== undefined)).toHaveLength(MAX_ANSWERS_PER_TENANT);
  });

  it('keeps nothing when the reuse time is 0 (switched off)', () => {
    const { cache } = listeningCache({ reuseMs: 0 });
    cache.keep('t1', 'state', body('a'), cache.ticket());
    expect(cache.get('t1', 'state')).toBeUndefined();
  });
});
