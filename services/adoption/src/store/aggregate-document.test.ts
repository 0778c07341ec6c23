import { describe, expect, it } from '@jest/globals';
import { emptyAggregate, packIds, toAggregate, unpackIds } from './aggregate-document.js';

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
