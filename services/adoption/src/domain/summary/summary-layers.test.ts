import { describe, expect, it } from '@jest/globals';
import type { EventFact } from '../facts/facts.js';
import { dayAt, fact } from '../testing/fact-builders.js';
import { changedSlots, overlaySlots, slotFactCount } from './summary-layers.js';
import { EMPTY_SUMMARY, foldFacts, type SummarySlot, type TenantSummary } from './tenant-summary.js';

const kinds = [
  'product.created',
  'product.updated',
  'product.viewed',
  'data_request.sent',
  'import.completed',
];

function batch(from: number, count: number, day: number): EventFact[] {
  return Array.from({ length: count }, (_, i) =>
    fact(
      kinds[(from + i) % kinds.length] as string,
      day + i / 1e4,
      { productId: `p-${(from + i) % 37}`, requestId: `r-${from + i}`, importId: `i-${(from + i) % 5}` },
      { id: `e-${from + i}`, data: { viewerTenantId: `t-${(from + i) % 3}` } },
    ),
  );
}

describe('summary layers', () => {
  it('add up to the folded summary when each write stores only the slots it changed', () => {
    let summary: TenantSummary = EMPTY_SUMMARY;
    const layers: SummarySlot[][] = [];
    for (let step = 0; step < 30; step += 1) {
      const day = 100 + step * 3;
      const next = foldFacts(summary, batch(step * 40, 40, day), dayAt(day));
      layers.push(changedSlots(summary, next));
      summary = next;
      expect(overlaySlots(layers, dayAt(day).getTime())).toEqual(summary.slots);
    }
    // The deltas are small against the whole: that is what keeps a write's cost flat.
    expect(slotFactCount(layers[layers.length - 1] ?? [])).toBeLessThan(slotFactCount(summary.slots) / 4);
  });

  it('lets a later layer replace an earlier slot and drops slots expired at the write', () => {
    const slot = (key: string, id: string, expiresAt: number | null): SummarySlot => ({
      key,
      keep: 'first',
      n: 1,
      expiresAt,
      facts: [fact('product.created', 1, {}, { id })],
    });
    const merged = overlaySlots([[slot('b', 'old', null), slot('a', 'x', 50)], [slot('b', 'new', null)]], 60);
    expect(merged.map((s) => [s.key, s.facts[0]?.id])).toEqual([['b', 'new']]);
  });

  it('finds nothing changed when a fold keeps every slot as it was', () => {
    const summary = foldFacts(EMPTY_SUMMARY, batch(0, 50, 10), dayAt(10));
    expect(changedSlots(summary, summary)).toEqual([]);
    expect(changedSlots(summary, foldFacts(summary, batch(0, 50, 10), dayAt(10)))).toEqual([]);
  });
});
