import { describe, expect, it } from '@jest/globals';
import { createInterner, MAX_INTERNED_VALUES } from './interner.js';

const byJson = <T extends object>() => createInterner<T>((value) => JSON.stringify(value));

describe('createInterner', () => {
  it('hands back the first object for an equal value, frozen', () => {
    const intern = byJson<{ tierCode: string; capabilities: string[] }>();
    const first = intern({ tierCode: 'CORE', capabilities: ['API_ACCESS'] });
    expect(intern({ tierCode: 'CORE', capabilities: ['API_ACCESS'] })).toBe(first);
    expect(Object.isFrozen(first.capabilities)).toBe(true);
  });

  it('gives a changed value its own object', () => {
    const intern = byJson<{ tierCode: string }>();
    const core = intern({ tierCode: 'CORE' });
    const plus = intern({ tierCode: 'SUPPLIER_PLUS' });
    expect(plus).not.toBe(core);
    expect(plus.tierCode).toBe('SUPPLIER_PLUS');
  });

  it('keeps at most MAX_INTERNED_VALUES values and hands the rest back as they came', () => {
    const intern = byJson<{ n: number }>();
    for (let n = 0; n < MAX_INTERNED_VALUES; n += 1) intern({ n });
    const late = { n: MAX_INTERNED_VALUES };
    expect(intern(late)).toBe(late);
    expect(Object.isFrozen(late)).toBe(false);
  });
});
