import { describe, expect, it } from '@jest/globals';
import { getTier, isTierCode, tierRef, tiersAbove, upgradeLadder } from './tier-lookup.js';
import { TIERS } from './tiers.js';

const codes = (tiers: { code: string }[]) => tiers.map((tier) => tier.code);

describe('tier lookup', () => {
  it('finds a tier by its code', () => {
    expect(getTier('SVC_CORE')).toBe(TIERS.SVC_CORE);
    expect(isTierCode('CORE')).toBe(true);
  });

  it.each(['', 'core', 'PLATINUM', 'toString', '__proto__'])('rejects %j as UNKNOWN_TIER', (code) => {
    expect(isTierCode(code)).toBe(false);
    expect(() => getTier(code)).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_TIER', kind: 'INVALID_ARGUMENT' }),
    );
  });

  it('names a tier as the spec does, code and name only', () => {
    expect(tierRef(TIERS.SUPPLIER_FREE)).toEqual({ code: 'SUPPLIER_FREE', name: 'Supplier Free' });
  });

  it('climbs the supplier path one tier at a time up to Enterprise', () => {
    expect(codes(tiersAbove(TIERS.SUPPLIER_FREE))).toEqual(['SUPPLIER_PLUS', 'CORE', 'ENTERPRISE']);
    expect(codes(upgradeLadder('SUPPLIER'))).toEqual([
      'SUPPLIER_FREE',
      'SUPPLIER_PLUS',
      'CORE',
      'ENTERPRISE',
    ]);
  });

  it('climbs the SVC path from SVC Core straight to Enterprise', () => {
    expect(codes(tiersAbove(TIERS.SVC_CORE))).toEqual(['ENTERPRISE']);
    expect(codes(upgradeLadder('SVC'))).toEqual(['SVC_CORE', 'ENTERPRISE']);
  });

  it('finds nothing above Enterprise', () => {
    expect(tiersAbove(TIERS.ENTERPRISE)).toEqual([]);
  });
});
