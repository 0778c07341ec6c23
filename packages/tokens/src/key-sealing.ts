import { createHash } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader, type JWK } from 'jose';
import { keyEncryptionKeyId } from './key-encryption-secret.js';

/*
 * Private signing keys are stored sealed (JWE, dir + A256GCM) under a key-encryption secret from
 * configuration, so a database dump alone cannot mint tokens. The protected header's `kid` names
 * the secret that sealed a key (keyEncryptionKeyId), so that while the secret is being rotated
 * each key is opened with the right one, and those sealed under the previous secret are found
 * and re-sealed. Keys sealed before the mark existed carry no `kid`.
 */

// The SHA-256 of the secret, as since the first release: keys sealed then still open.
function keyEncryptionKey(secret: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(secret, 'utf8').digest());
}

async function open(sealed: string, secret: string): Promise<JWK> {
  const { plaintext } = await compactDecrypt(sealed, keyEncryptionKey(secret));
  return JSON.parse(new TextDecoder().decode(plaintext)) as JWK;
}

/** Seals `privateJwk` under `secret`, marking the header with the secret's identifier. */
export async function sealPrivateJwk(privateJwk: JWK, secret: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'jwk+json', kid: keyEncryptionKeyId(secret) })
    .encrypt(keyEncryptionKey(secret));
}

/** Opens a key sealed under `secret` (marked or not); rejects when `secret` does not open it. */
export async function unsealPrivateJwk(sealed: string, secret: string): Promise<JWK> {
  return open(sealed, secret);
}

/** A sealed key that none of the configured secrets opens (wrong secret, or tampered with). */
export class KeyUnsealError extends Error {
  override readonly name = 'KeyUnsealError';
  readonly code = 'KEY_SEALED_UNDER_UNKNOWN_SECRET';
  constructor(
    /** The identifier of the secret that sealed it; undefined for keys sealed before marks. */
    readonly sealedBy: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `the sealed key opens with none of the configured key-encryption secrets (sealed by ${sealedBy ?? 'an unmarked secret'})`,
      options,
    );
  }
}

export interface UnsealedKey {
  readonly privateJwk: JWK;
  /** False when the key should be re-sealed: under the previous secret, or not marked yet. */
  readonly sealedUnderCurrent: boolean;
}

/** Seals with the current key-encryption secret; opens with the current or the previous one. */
export interface KeySealer {
  /** Identifiers of the configured secrets (safe to log). */
  readonly secretIds: { readonly current: string; readonly previous: string | undefined };
  seal(privateJwk: JWK): Promise<string>;
  /** True when the header names the current secret (reads the header only, decrypts nothing). */
  isSealedUnderCurrent(sealed: string): boolean;
  /** Rejects with KeyUnsealError when neither secret opens the key. */
  unseal(sealed: string): Promise<UnsealedKey>;
}

function sealedBy(sealed: string): string | undefined {
  try {
    const { kid } = decodeProtectedHeader(sealed);
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The sealer for a rotation of the key-encryption secret: `previous` is set only while keys
 * sealed under it may remain. A marked key is opened with the secret its mark names (and only
 * that one); an unmarked key with the current secret, then the previous one.
 */
export function createKeySealer(secrets: { current: string; previous?: string | undefined }): KeySealer {
  const current = { secret: secrets.current, id: keyEncryptionKeyId(secrets.current) };
  const previous =
    secrets.previous === undefined
      ? undefined
      : { secret: secrets.previous, id: keyEncryptionKeyId(secrets.previous) };
  const configured = previous ? [current, previous] : [current];
  return {
    secretIds: { current: current.id, previous: previous?.id },
    seal: (privateJwk) => sealPrivateJwk(privateJwk, current.secret),
    isSealedUnderCurrent: (sealed) => sealedBy(sealed) === current.id,
    async unseal(sealed) {
      const mark = sealedBy(sealed);
      const candidates = mark === undefined ? configured : configured.filter((c) => c.id === mark);
      let failure: unknown;
      for (const candidate of candidates) {
        try {
          const privateJwk = await open(sealed, candidate.secret);
          return { privateJwk, sealedUnderCurrent: mark === current.id };
        } catch (error) {
          failure = error;
        }
      }
      throw new KeyUnsealError(mark, { cause: failure });
    },
  };
}
