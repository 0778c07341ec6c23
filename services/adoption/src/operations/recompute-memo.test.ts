import { describe, expect, it } from '@jest/globals';
import type { RecomputeResult } from '../domain/index.js';
import { createRecomputeMemo } from './recompute-memo.js';
import type { TenantAggregate } from '../store/aggregate-document.js';
import { UNSEEN_TIER } from '../domain/index.js';

const aggregate = () => ({ tenantId: 't' }) as unknown as TenantAggregate;
const T0 = new Date('2026-01-01T00:00:00.000Z');

describe('the recompute memo', () => {
  it('shares a recompute between reads of the same aggregate and tier within a second', () => {
    const memo = createRecomputeMemo();
    const agg = aggregate();
    let computed = 0;
    const compute = () => ({ n: (computed += 1) }) as unknown as RecomputeResult;
    memo(agg, UNSEEN_TIER, {}, T0, compute);
    memo(agg, UNSEEN_TIER, {}, new Date(T0.getTime() + 500), compute);
    expect(computed).toBe(1);
  });

  it('computes again for a new aggregate object, another tier or a clock moved by a second', () => {
    const memo = createRecomputeMemo();
    const agg = aggregate();
    let computed = 0;
    const compute = () => ({ n: (computed += 1) }) as unknown as RecomputeResult;
    memo(agg, UNSEEN_TIER, {}, T0, compute);
    memo(aggregate(), UNSEEN_TIER, {}, T0, compute);
    memo(agg, { ...UNSEEN_TIER }, {}, T0, compute);
    memo(agg, UNSEEN_TIER, {}, new Date(T0.getTime() + 1_000), compute);
    expect(computed).toBe(4);
  });
});
