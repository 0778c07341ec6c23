import { describe, expect, it } from '@jest/globals';
import { EMPTY_SUMMARY, foldFacts } from '../domain/index.js';
import { emptyAggregate, packIds, packSummary, toAggregate, unpackIds } from './aggregate-document.js';

describe('the recent event ids as stored', () => {
  it('read the same from one string (written now) and from an array (written before)', () => {
    const ids = ['e-1', 'e-2', 'e-3'];
    const base = { _id: 't', ...emptyAggregate(new Date(0)) };
    expect(toAggregate({ ...base, recentEventIds: packIds(ids) }).recentEventIds).toEqual(ids);
    expect(toAggregate({ ...base, recentEventIds: ids }).recentEventIds).toEqual(ids);
    expect(typeof packIds(ids)).toBe('string');
  });

  it('count as none remembered when unreadable (the sequence and the raw log still dedupe)', () => {
    expect(unpackIds('not json')).toEqual([]);
    expect(unpackIds('{"a":1}')).toEqual([]);
    expect(unpackIds('["a",2,"b"]')).toEqual(['a', 'b']);
    expect(unpackIds(undefined)).toEqual([]);
  });
});

describe('the inline summary as stored', () => {
  it('reads the same packed (written now) and as a structure (written before)', () => {
    const at = new Date('2025-06-01T00:00:00.000Z');
    const summary = foldFacts(
      EMPTY_SUMMARY,
      [
        {
          id: 'e-1',
          type: 'product.created',
          occurredAt: at.toISOString(),
          subject: { productId: 'p-1' },
          data: {},
        },
      ],
      at,
    );
    const base = { _id: 't', ...emptyAggregate(at) };
    const packed = toAggregate({ ...base, summary: packSummary(summary) });
    expect(packed.summary).toEqual(summary);
    expect(toAggregate({ ...base, summary }).summary).toEqual(summary);
    expect(packed.facts).toHaveLength(1);
  });
});
