import { hkdfSync } from 'node:crypto';

/*
 * Everything derived from identity's KEY_ENCRYPTION_SECRET, in one place: the sealing key
 * itself (key-sealing.ts), the identifier that marks what it sealed, and the default
 * TOKEN_HASH_SECRET. Each comes from its own label, so none of them reveals another.
 */

const KEY_ID_SALT = 'tap-key-sealing-v1';
const KEY_ID_LABEL = 'key-encryption-key-id';
const KEY_ID_BYTES = 12;

// Must never change: stored refresh-token, client-secret and magic-link hashes depend on it.
const TOKEN_HASH_SALT = 'tap-identity-v1';
const TOKEN_HASH_LABEL = 'token-hash-secret';
const TOKEN_HASH_BYTES = 32;

/**
 * Names a key-encryption secret without revealing it: HKDF-SHA256 under its own label, never a
 * plain hash (the SHA-256 of the secret is the sealing key). Safe to store in a JWE header and
 * to log. Like the sealed keys themselves, it lets someone holding the database test guesses of
 * the secret offline, which is why the secret must be long and random (at least 32 characters).
 */
export function keyEncryptionKeyId(keyEncryptionSecret: string): string {
  return Buffer.from(
    hkdfSync('sha256', keyEncryptionSecret, KEY_ID_SALT, KEY_ID_LABEL, KEY_ID_BYTES),
  ).toString('base64url');
}

/**
 * The TOKEN_HASH_SECRET identity uses when none is configured: derived from the key-encryption
 * secret under its own label, so it never equals the key that seals signing keys. It changes
 * with KEY_ENCRYPTION_SECRET, so it must be pinned (set explicitly to this value) before that
 * secret is rotated; `tap token-hash-secret` prints it.
 */
export function deriveTokenHashSecret(keyEncryptionSecret: string): string {
  return Buffer.from(
    hkdfSync('sha256', keyEncryptionSecret, TOKEN_HASH_SALT, TOKEN_HASH_LABEL, TOKEN_HASH_BYTES),
  ).toString('base64url');
}
