import { countItems } from '../items/distinct-items.js';
import { describe, expect, it } from '@jest/globals';
import { COVERAGE_CELL_KEYS } from '../coverage/coverage-cells.js';
import { MAX_SIGNAL_LIMIT } from '../risk/active-signals.js';
import type { RiskSignal } from '../risk/risk-signal.js';
import { recompute } from '../state/recompute.js';
import { dayAt, isoAt } from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { UNSEEN_TIER } from '../tier/tier.js';
import { emptyProjection, projectionOf } from './tenant-projection.js';

const signal = (n: number, resolution: RiskSignal['resolution']): RiskSignal => ({
  id: `s-${n}`,
  kind: 'INVITATION_UNACCEPTED',
  severity: 'LOW',
  resolution,
  escalatedToHuman: false,
  subjectRef: { connectionId: `c-${n}` },
  detectedAt: isoAt(n / 1_000),
  resolvedAt: null,
});

describe('the tenant projection', () => {
  it('holds what the reads answer, derived from the write’s recompute', () => {
    const result = recompute(WORKED_EXAMPLE);
    const projection = projectionOf({
      result,
      ledger: [],
      facts: WORKED_EXAMPLE.facts,
      items: countItems(WORKED_EXAMPLE.facts),
      capabilities: WORKED_EXAMPLE.capabilities,
      appliedEvents: 42,
    });
    expect(projection.state).toBe(result.state);
    expect(projection.explanation).toBe(result.explanation);
    expect(projection.coverage.map((c) => c.key)).toEqual(COVERAGE_CELL_KEYS);
    expect(projection.coverage.find((c) => c.key === 'PRODUCTS')).toMatchObject({ count: 3, viewedCount: 1 });
    expect(projection.capabilities).toEqual(WORKED_EXAMPLE.capabilities);
    expect(projection.appliedEvents).toBe(42);
  });

  it('keeps only active signals, most recent first, at most MAX_SIGNAL_LIMIT', () => {
    const ledger = Array.from({ length: MAX_SIGNAL_LIMIT + 50 }, (_, n) =>
      signal(n, n % 5 === 0 ? 'RESOLVED' : 'OPEN'),
    );
    const { signals } = projectionOf({
      result: recompute(WORKED_EXAMPLE),
      ledger,
      facts: [],
      items: {},
      capabilities: [],
      appliedEvents: 0,
    });
    expect(signals).toHaveLength(MAX_SIGNAL_LIMIT);
    expect(signals.every((s) => s.resolution !== 'RESOLVED')).toBe(true);
    expect(signals[0]?.id).toBe(`s-${MAX_SIGNAL_LIMIT + 49}`);
  });

  it('gives a tenant nothing was written for every milestone, no score and empty cells', () => {
    const projection = emptyProjection({
      tenantId: 't-1',
      tier: UNSEEN_TIER,
      upgradeContexts: {},
      now: dayAt(3),
    });
    expect(projection.state).toMatchObject({
      companyId: 't-1',
      healthScore: null,
      version: 0,
      lastRecomputedAt: dayAt(3).toISOString(),
    });
    expect(projection.state.milestones).toHaveLength(28);
    expect(projection.coverage.every((c) => c.count === 0)).toBe(true);
    expect(projection.signals).toEqual([]);
    expect(projection.appliedEvents).toBe(0);
  });
});
