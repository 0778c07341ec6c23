import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HashPurpose, KeyedHasher } from '../operations/ports/keyed-hasher.js';

const HKDF_SALT = 'tap-identity-v1';
const SUBKEY_BYTES = 32;
const SECRET_ID_LABEL = 'token-hash-secret-id';
const SECRET_ID_BYTES = 12;

/**
 * Builds the hasher; the subkeys are derived once with HKDF-SHA256 from `secret` (and from
 * `previous`, when one is given that differs from `secret`).
 */
export function createKeyedHasher(secret: string, previous?: string): KeyedHasher {
  const current = hmacUnder(secret);
  const before = previous === undefined || previous === secret ? undefined : hmacUnder(previous);
  return {
    digest: current,
    previousDigest: (purpose, value) => before?.(purpose, value),
    secretId: tokenHashSecretId(secret),
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

/** The identifier stored with a client's secret hash: which secret made it. */
export function tokenHashSecretId(secret: string): string {
  return Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, SECRET_ID_LABEL, SECRET_ID_BYTES)).toString(
    'base64url',
  );
}

function hmacUnder(secret: string): (purpose: HashPurpose, value: string) => string {
  const subkeys = new Map<HashPurpose, Buffer>();
  const subkey = (purpose: HashPurpose): Buffer => {
    let key = subkeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, purpose, SUBKEY_BYTES));
      subkeys.set(purpose, key);
    }
    return key;
  };
  return (purpose, value) => createHmac('sha256', subkey(purpose)).update(value, 'utf8').digest('base64url');
}

/** `bytes` random bytes as base64url (256 bits by default): refresh tokens, client secrets, passwords. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
