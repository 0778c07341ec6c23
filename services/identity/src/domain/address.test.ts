import { describe, expect, it } from '@jest/globals';
import { normaliseDomain, normaliseEmailAddress } from './address.js';
import { MALFORMED_ADDRESSES } from './testing/addresses.js';

describe('e-mail addresses and domains: one normalised form', () => {
  it('lower-cases, applies NFKC and turns a Unicode domain into its IDNA A-label', () => {
    expect(normaliseEmailAddress('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(normaliseEmailAddress('Ada@B\u00FCcher.Example')).toBe('ada@xn--bcher-kva.example');
    // Decomposed (u + combining diaeresis, as some keyboards type it) is the same address.
    expect(normaliseEmailAddress('ada@bu\u0308cher.example')).toBe('ada@xn--bcher-kva.example');
    expect(normaliseDomain('B\u00FCcher.Example')).toBe('xn--bcher-kva.example');
    expect(normaliseDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });

  it('reads the Kelvin sign as the K it canonically is: the same domain, compared in one form', () => {
    expect(normaliseEmailAddress('joiner@\u212Aelvin.example')).toBe('joiner@kelvin.example');
    expect(normaliseDomain('\u212Aelvin.example')).toBe('kelvin.example');
  });

  it('refuses confusable compatibility spellings (fullwidth, ligatures, mathematical letters)', () => {
    for (const confusable of [
      'joiner@\uFF4Belvin.example',
      'joiner@\uFB01nance.example',
      '\uFF41da@example.com',
      'ada@\uD835\uDC1Eexample.com',
    ])
      expect([confusable, normaliseEmailAddress(confusable)]).toEqual([confusable, undefined]);
    expect(normaliseDomain('\uFF4Belvin.example')).toBeUndefined();
  });

  it('refuses what is not an address or a domain', () => {
    for (const bad of MALFORMED_ADDRESSES) expect(normaliseEmailAddress(bad)).toBeUndefined();
    for (const bad of ['', 'example', '-x.example', 'x..example', 'a@b.example'])
      expect(normaliseDomain(bad)).toBeUndefined();
  });

  it('is idempotent: a normalised form normalises to itself', () => {
    for (const address of ['ada@xn--bcher-kva.example', 'joiner@kelvin.example', 'ada@example.com'])
      expect(normaliseEmailAddress(address)).toBe(address);
  });
});
