import { describe, expect, it } from '@jest/globals';
import type { TenantAggregate } from '../ports.js';
import { toAggregate, emptyAggregate } from './aggregate-document.js';
import { lastWrittenAggregates } from './last-written-aggregates.js';

const aggregate = (tenantId: string, version: number, recentIds = 0): TenantAggregate => ({
  ...toAggregate({ _id: tenantId, ...emptyAggregate(new Date(0)) }),
  version,
  recentEventIds: Array.from({ length: recentIds }, (_, i) => `e-${i}`),
});

describe('lastWrittenAggregates', () => {
  it('forgets the least recently written tenant past its bounds (tenants, then kept ids)', () => {
    const memory = lastWrittenAggregates({ maxTenants: 2, maxFacts: 100 });
    memory.set('a', aggregate('a', 1));
    memory.set('b', aggregate('b', 1));
    memory.set('a', aggregate('a', 2));
    memory.set('c', aggregate('c', 1));
    expect([memory.get('a')?.version, memory.get('b'), memory.get('c')?.version]).toEqual([2, undefined, 1]);
    memory.set('d', aggregate('d', 1, 99));
    expect([memory.get('a'), memory.get('c')?.version, memory.get('d')?.version]).toEqual([undefined, 1, 1]);
    memory.set('e', aggregate('e', 1, 2));
    expect([memory.get('c'), memory.get('d'), memory.get('e')?.version]).toEqual([undefined, undefined, 1]);
  });

  it('answers for its maximum age only', () => {
    let clock = 0;
    const memory = lastWrittenAggregates({ maxAgeMs: 1_000, clock: () => clock });
    memory.set('a', aggregate('a', 1));
    clock = 1_000;
    expect(memory.get('a')?.version).toBe(1);
    clock = 1_001;
    expect(memory.get('a')).toBeUndefined();
  });

  it('keeps its own write and echoes of older ones, forgets a newer or unversioned change', () => {
    const memory = lastWrittenAggregates();
    memory.set('a', aggregate('a', 5));
    memory.changed('a', 5);
    memory.changed('a', 4);
    expect(memory.get('a')?.version).toBe(5);
    memory.changed('a', 6);
    expect(memory.get('a')).toBeUndefined();
    memory.set('a', aggregate('a', 7));
    memory.changed('a');
    expect(memory.get('a')).toBeUndefined();
  });
});
