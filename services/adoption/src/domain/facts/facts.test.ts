import { describe, expect, it } from '@jest/globals';
import { completion, fact } from '../testing/fact-builders.js';
import { buildFactLog, factsOfType, mergeCompletions } from './fact-log.js';
import { toFact } from './facts.js';

const envelope = {
  id: '6d0f1c1e-0000-4000-8000-000000000001',
  type: 'product.created',
  tenantId: 't-1',
  occurredAt: '2025-01-02T03:04:05.000Z',
  subject: { productId: 'p-1' },
  data: { name: 'Widget', viewerTenantId: 'partner-9', rows: 12 },
};

describe('toFact', () => {
  it('keeps id, type, time, subject refs and only the data fields adoption reads', () => {
    expect(toFact(envelope)).toEqual({
      id: envelope.id,
      type: 'product.created',
      occurredAt: envelope.occurredAt,
      subject: { productId: 'p-1' },
      data: { viewerTenantId: 'partner-9' },
    });
  });

  it('drops unknown event kinds and unreadable timestamps', () => {
    expect(toFact({ ...envelope, type: 'product.teleported' })).toBeNull();
    expect(toFact({ ...envelope, occurredAt: 'yesterday' })).toBeNull();
  });
});

describe('buildFactLog', () => {
  it('orders facts by time then id whatever the delivery order', () => {
    const a = fact('product.created', 2, { productId: 'a' });
    const b = fact('product.created', 1, { productId: 'b' });
    const c = fact('product.updated', 1, { productId: 'c' }, { id: 'a-first' });
    expect(buildFactLog([a, b, c]).facts.map((f) => f.id)).toEqual(['a-first', b.id, a.id]);
  });

  it('keeps one fact per id, ignores unknown kinds and bad timestamps', () => {
    const a = fact('product.created', 1);
    const log = buildFactLog([a, a, fact('mystery.kind', 1), { ...a, id: 'bad', occurredAt: 'nope' }]);
    expect(log.facts.map((f) => f.id)).toEqual([a.id]);
    expect(factsOfType(log, 'product.created')).toHaveLength(1);
    expect(factsOfType(log, 'product.viewed')).toEqual([]);
  });
});

describe('mergeCompletions', () => {
  it('takes completions from the stored list and from milestone.completed facts, earliest per key', () => {
    const replayed = fact(
      'milestone.completed',
      3,
      { milestoneKey: 'kickoff_call_held' },
      { id: 'evt-1', data: { evidenceRef: 'call-7' } },
    );
    const merged = mergeCompletions([completion('kickoff_call_held', 5)], buildFactLog([replayed]));
    expect(merged.size).toBe(1);
    expect(merged.get('kickoff_call_held')).toMatchObject({ id: 'evt-1', evidenceRef: 'call-7' });
  });

  it('ignores milestone.completed facts that name no milestone', () => {
    expect(mergeCompletions([], buildFactLog([fact('milestone.completed', 1)])).size).toBe(0);
  });
});
