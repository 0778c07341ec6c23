import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { deriveTokenHashSecret, keyEncryptionKeyId } from './key-encryption-secret.js';

describe('values derived from the key-encryption secret', () => {
  const secret = 'k'.repeat(40);

  it('give the same default token-hash secret as every release before (stored hashes depend on it)', () => {
    expect(deriveTokenHashSecret(secret)).toBe('5GgkRu_4v5ey9dN7cHXGaajIjOqYwogVFSv7aeDMBlE');
    expect(deriveTokenHashSecret(secret)).not.toBe(deriveTokenHashSecret('l'.repeat(40)));
  });

  it('name a secret without revealing it or its sealing key', () => {
    const id = keyEncryptionKeyId(secret);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(keyEncryptionKeyId(secret)).toBe(id);
    expect(keyEncryptionKeyId('l'.repeat(40))).not.toBe(id);
    const sealingKey = createHash('sha256').update(secret).digest('base64url');
    expect(sealingKey.startsWith(id)).toBe(false);
    expect(deriveTokenHashSecret(secret).startsWith(id)).toBe(false);
    expect(id).not.toContain('kkk');
  });
});
