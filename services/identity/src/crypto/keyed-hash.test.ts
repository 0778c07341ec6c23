import { describe, expect, it } from '@jest/globals';
import { deriveTokenHashSecret } from '@tap/tokens';
import { createKeyedHasher, randomSecret } from './keyed-hash.js';

describe('keyed hashes', () => {
  const hasher = createKeyedHasher('s'.repeat(32));

  it('depend on the secret and on the purpose', () => {
    const value = randomSecret();
    const digest = hasher.digest('refresh-token', value);
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hasher.digest('refresh-token', value)).toBe(digest);
    expect(hasher.digest('client-secret', value)).not.toBe(digest);
    expect(createKeyedHasher('t'.repeat(32)).digest('refresh-token', value)).not.toBe(digest);
  });

  it('compare digests of any length without throwing', () => {
    expect(hasher.equal('abc', 'abc')).toBe(true);
    expect(hasher.equal('abc', 'abd')).toBe(false);
    expect(hasher.equal('abc', 'abcd')).toBe(false);
  });

  it('derive their default secret from the key-encryption secret without reusing it', () => {
    const derived = deriveTokenHashSecret('k'.repeat(40));
    expect(derived).not.toContain('kkkk');
    expect(deriveTokenHashSecret('k'.repeat(40))).toBe(derived);
    expect(randomSecret()).not.toBe(randomSecret());
  });
});
