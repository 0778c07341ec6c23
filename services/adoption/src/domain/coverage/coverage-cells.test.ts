import { describe, expect, it } from '@jest/globals';
import { countItems } from '../items/distinct-items.js';
import { fact } from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { COVERAGE_CELL_KEYS, coverageCells } from './coverage-cells.js';

describe('coverageCells', () => {
  it('lists every cell, not achieved, for a tenant with no facts', () => {
    const cells = coverageCells({ facts: [], items: {}, capabilities: [] });
    expect(cells.map((c) => c.key)).toEqual(COVERAGE_CELL_KEYS);
    expect(cells.every((c) => !c.achieved && c.count === 0 && c.viewedCount === 0)).toBe(true);
  });

  it('marks gated cells capable only when the tier grants their capability', () => {
    const cells = coverageCells({ facts: [], items: {}, capabilities: ['BULK_UPLOAD'] });
    const capable = Object.fromEntries(cells.map((c) => [c.key, c.capable]));
    expect(capable).toMatchObject({
      PRODUCTS: true,
      BULK_IMPORTS: true,
      INTEGRATIONS: false,
      PASSPORTS: false,
    });
  });

  it('counts live items and how many partners viewed', () => {
    const cells = coverageCells({
      facts: WORKED_EXAMPLE.facts,
      items: countItems(WORKED_EXAMPLE.facts),
      capabilities: WORKED_EXAMPLE.capabilities,
    });
    const byKey = Object.fromEntries(cells.map((c) => [c.key, c]));
    expect(byKey['PRODUCTS']).toEqual({
      key: 'PRODUCTS',
      label: 'Products',
      capable: true,
      achieved: true,
      count: 3,
      viewedCount: 1,
    });
    expect(byKey['CONNECTIONS']).toMatchObject({ count: 2, viewedCount: 1 });
    expect(byKey['BULK_IMPORTS']).toMatchObject({ count: 2, achieved: true });
    expect(byKey['TRACEABILITY']).toMatchObject({ capable: false, achieved: false });
  });

  it('drops archived products and removed connections from the counts', () => {
    const facts = [
      fact('product.created', 1, { productId: 'p1' }),
      fact('product.archived', 2, { productId: 'p1' }),
      fact('connection.accepted', 1, { connectionId: 'c1' }),
      fact('connection.removed', 3, { connectionId: 'c1' }),
    ];
    const cells = coverageCells({ facts, items: countItems(facts), capabilities: [] });
    expect(cells.find((c) => c.key === 'PRODUCTS')).toMatchObject({ count: 0, achieved: false });
    expect(cells.find((c) => c.key === 'CONNECTIONS')).toMatchObject({ count: 0 });
  });

  it('keeps what a downgraded tenant achieved while showing it is no longer capable', () => {
    const facts = [fact('passport.published', 1, { productId: 'p1' })];
    const cells = coverageCells({ facts, items: countItems(facts), capabilities: [] });
    expect(cells.find((c) => c.key === 'PASSPORTS')).toMatchObject({
      capable: false,
      achieved: true,
      count: 1,
    });
  });
});
