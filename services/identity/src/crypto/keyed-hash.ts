import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a keyed hash protects; each purpose gets its own subkey, so one digest never stands for another. */
export type HashPurpose = 'refresh-token' | 'refresh-token-child' | 'client-secret' | 'magic-link';

const HKDF_SALT = 'tap-identity-v1';
const SUBKEY_BYTES = 32;

/**
 * HMAC-SHA256 under a server secret, for bearer artefacts that are long and random (refresh
 * tokens, OAuth client secrets). A slow password hash would add nothing for 256-bit random
 * values and would cap the token endpoint at a few dozen grants per core; a keyed hash makes a
 * stolen database useless without the secret (Hydra stores only such signatures too).
 */
export interface KeyedHasher {
  /** base64url HMAC of `value` under the purpose's subkey. */
  digest(purpose: HashPurpose, value: string): string;
  /** Constant-time comparison of two digests (equal length or not). */
  equal(a: string, b: string): boolean;
}

/** Builds the hasher; the subkeys are derived once with HKDF-SHA256 from `secret`. */
export function createKeyedHasher(secret: string): KeyedHasher {
  const subkeys = new Map<HashPurpose, Buffer>();
  const subkey = (purpose: HashPurpose): Buffer => {
    let key = subkeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, purpose, SUBKEY_BYTES));
      subkeys.set(purpose, key);
    }
    return key;
  };
  return {
    digest(purpose, value) {
      return createHmac('sha256', subkey(purpose)).update(value, 'utf8').digest('base64url');
    },
    equal(a, b) {
      const left = Buffer.from(a, 'utf8');
      const right = Buffer.from(b, 'utf8');
      // timingSafeEqual needs equal lengths; comparing a value with itself keeps the time the same.
      if (left.length !== right.length) {
        timingSafeEqual(left, left);
        return false;
      }
      return timingSafeEqual(left, right);
    },
  };
}

/** `bytes` random bytes as base64url (256 bits by default): refresh tokens, client secrets, passwords. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
