import { describe, expect, it } from '@jest/globals';
import { fact } from '../testing/fact-builders.js';
import {
  addItemCounts,
  countItems,
  countTouches,
  firstTouches,
  itemTouches,
  pairLookups,
  type StoredMarker,
} from './distinct-items.js';

const created = (id: string, day: number) => fact('product.created', day, { productId: id });
const viewed = (id: string, day: number) => fact('product.viewed', day, { productId: id });

describe('distinct items', () => {
  it('counts each product once however often it is created, viewed or traced', () => {
    const facts = [created('p1', 1), created('p1', 2), created('p2', 2), viewed('p1', 3), viewed('p1', 4)];
    expect(countItems(facts)).toEqual({ product: 2, viewed: 1, 'viewed+product': 1 });
  });

  it('pairs a view with a trace whichever comes first, once', () => {
    const traced = (id: string, day: number) => fact('trace.recorded', day, { productId: id });
    expect(countItems([viewed('p1', 1), traced('p1', 2)])).toMatchObject({ 'viewed+traced': 1 });
    expect(countItems([traced('p1', 1), viewed('p1', 2)])).toMatchObject({ 'viewed+traced': 1 });
  });

  it('counts an archive only for a product it names', () => {
    const archived = (id: string | undefined, day: number) =>
      fact('product.archived', day, id === undefined ? {} : { productId: id });
    expect(countItems([created('p1', 1), archived('p1', 2), archived(undefined, 3)])).toEqual({
      product: 1,
      archived: 1,
      'archived+product': 1,
    });
  });

  it('counts a fact without its ref as an item of its own', () => {
    expect(countItems([fact('import.completed', 1, {}), fact('import.completed', 2, {})])).toEqual({
      import: 2,
    });
  });

  it('splits into groups against a store of markers and adds up to the whole', () => {
    const facts = [created('p1', 1), viewed('p1', 2), created('p2', 3), viewed('p2', 4), viewed('p1', 5)];
    const store = new Map<string, StoredMarker>();
    let counts = {};
    for (const group of [facts.slice(0, 2), facts.slice(2, 3), facts.slice(3)]) {
      const touches = itemTouches(group);
      const inserted = new Set(touches.map((t) => t.key).filter((k) => !store.has(k)));
      const firsts = firstTouches(touches, inserted, new Map());
      const partners = new Map(
        pairLookups(touches, firsts).flatMap((k) => (store.has(k) ? [[k, store.get(k)!]] : [])),
      );
      counts = addItemCounts(counts, countTouches(touches, firsts, partners));
      for (const t of firsts) store.set(t.key, { eventId: t.eventId });
    }
    expect(counts).toEqual(countItems(facts));
  });

  it('counts a retried group again only through markers its own events put in', () => {
    const group = [created('p1', 1), viewed('p1', 2)];
    const touches = itemTouches(group);
    // The first attempt inserted both markers and died before the tenant's write.
    const held = new Map(touches.map((t) => [t.key, { eventId: t.eventId }]));
    const firsts = firstTouches(touches, new Set(), held);
    expect(countTouches(touches, firsts, new Map())).toEqual({ product: 1, viewed: 1, 'viewed+product': 1 });
    // Markers put in by other events are duplicates: nothing counts.
    const others = new Map(touches.map((t) => [t.key, { eventId: 'another' }]));
    expect(firstTouches(touches, new Set(), others)).toEqual([]);
  });
});
