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

  it('hash under the previous secret only on request, and only while one is configured', () => {
    const value = randomSecret();
    const rotating = createKeyedHasher('t'.repeat(32), 's'.repeat(32));
    expect(rotating.digest('client-secret', value)).toBe(
      createKeyedHasher('t'.repeat(32)).digest('client-secret', value),
    );
    expect(rotating.previousDigest('client-secret', value)).toBe(hasher.digest('client-secret', value));
    expect(hasher.previousDigest('client-secret', value)).toBeUndefined();
    expect(
      createKeyedHasher('s'.repeat(32), 's'.repeat(32)).previousDigest('client-secret', value),
    ).toBeUndefined();
    expect(rotating.secretId).not.toBe(hasher.secretId);
    expect(rotating.secretId).not.toContain('tttt');
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
