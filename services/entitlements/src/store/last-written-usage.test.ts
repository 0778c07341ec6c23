import { describe, expect, it } from '@jest/globals';
import { afterUpdate, lastWrittenUsage } from './last-written-usage.js';
import type { UsageDocument } from './usage-document.js';

const doc = (id: string, ids: number): UsageDocument => ({
  _id: id,
  counters: { MAX_USERS: { used: 2, held: 0 } },
  months: {},
  reservations: {},
  lastSeq: 4,
  version: 7,
  recentEventIds: Array.from({ length: ids }, (_, i) => `e${i}`),
});

describe('afterUpdate', () => {
  it('applies $inc on dotted paths (creating them) and $set, leaving the document it was given alone', () => {
    const before = doc('t', 1);
    const after = afterUpdate(
      before,
      { 'counters.MAX_USERS.used': -1, 'months.2026-11.BULK_UPLOAD_ROWS_MONTH.used': 40, version: 1 },
      { lastSeq: 9, recentEventIds: ['e0', 'e1'] },
    );
    expect(after.counters?.['MAX_USERS']).toEqual({ used: 1, held: 0 });
    expect(after.months?.['2026-11']?.['BULK_UPLOAD_ROWS_MONTH']).toEqual({ used: 40 });
    expect([after.version, after.lastSeq, after.recentEventIds]).toEqual([8, 9, ['e0', 'e1']]);
    expect(before).toEqual(doc('t', 1));
  });
});

describe('lastWrittenUsage', () => {
  it('keeps at most its number of tenants, least recently written out first', () => {
    const known = lastWrittenUsage(2, 1_000);
    known.set('a', doc('a', 1));
    known.set('b', doc('b', 1));
    known.set('a', doc('a', 1));
    known.set('c', doc('c', 1));
    expect(['a', 'b', 'c'].map((t) => known.get(t) !== undefined)).toEqual([true, false, true]);
  });

  it('keeps at most its number of event ids over all tenants', () => {
    const known = lastWrittenUsage(10, 1_500);
    known.set('a', doc('a', 1_000));
    known.set('b', doc('b', 1_000));
    expect([known.get('a'), known.get('b')?._id]).toEqual([undefined, 'b']);
    known.forget('b');
    known.set('c', doc('c', 1_000));
    expect(known.get('c')?._id).toBe('c');
  });
});
