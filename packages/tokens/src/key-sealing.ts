import { createHash } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, type JWK } from 'jose';

/**
 * Private signing keys are stored sealed (JWE, dir + A256GCM) under a key-encryption secret from
 * configuration, so a database dump alone cannot mint tokens.
 */
function keyEncryptionKey(secret: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(secret, 'utf8').digest());
}

export async function sealPrivateJwk(privateJwk: JWK, secret: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'jwk+json' })
    .encrypt(keyEncryptionKey(secret));
}

export async function unsealPrivateJwk(sealed: string, secret: string): Promise<JWK> {
  const { plaintext } = await compactDecrypt(sealed, keyEncryptionKey(secret));
  return JSON.parse(new TextDecoder().decode(plaintext)) as JWK;
}
