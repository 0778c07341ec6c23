import { KeyUnsealError, type KeySealer, type UnsealedKey } from '@tap/tokens';
import type { JWK } from 'jose';
import { identityErrors } from '../domain/errors.js';
import type { SigningKeysRepository } from '../operations/ports/signing-keys-repository.js';

/**
 * How many times a re-sealing is read back before giving up. One write and one read suffice
 * unless replicas with different current secrets keep re-sealing the same key.
 */
export const RESEAL_ATTEMPTS = 5;

/**
 * The private halves of the stored signing keys under the configured key-encryption secrets
 * (KEY_ENCRYPTION_SECRET and, during its rotation, KEY_ENCRYPTION_SECRET_PREVIOUS).
 */
export interface SealedKeys {
  seal(privateJwk: JWK): Promise<string>;
  /** Opens a stored key; SIGNING_KEY_SEALED_UNDER_UNKNOWN_SECRET when neither secret does. */
  open(kid: string, sealed: string): Promise<UnsealedKey>;
  /** Re-seals one key under the current secret, unless it already is; returns once it reads so. */
  reseal(kid: string): Promise<void>;
  /**
   * Re-seals every stored key, retired or not, that is not sealed under the current secret;
   * returns their kids. Idempotent, and safe while other replicas do the same.
   */
  resealStale(): Promise<string[]>;
}

export function sealedKeys(repository: SigningKeysRepository, sealer: KeySealer): SealedKeys {
  const ids = sealer.secretIds;
  const open = async (kid: string, sealed: string): Promise<UnsealedKey> => {
    try {
      return await sealer.unseal(sealed);
    } catch (error) {
      if (!(error instanceof KeyUnsealError)) throw error;
      // Identifiers only (keyEncryptionKeyId): they tell which secret is missing, never a secret.
      throw identityErrors.create('SIGNING_KEY_SEALED_UNDER_UNKNOWN_SECRET', {
        message:
          `Signing key ${kid} opens with neither KEY_ENCRYPTION_SECRET (id ${ids.current}) nor ` +
          `KEY_ENCRYPTION_SECRET_PREVIOUS (${ids.previous === undefined ? 'not set' : `id ${ids.previous}`}); ` +
          `it was sealed under ${error.sealedBy === undefined ? 'a secret of before the ids' : `id ${error.sealedBy}`}. ` +
          'Set KEY_ENCRYPTION_SECRET_PREVIOUS to the secret it was sealed under.',
      });
    }
  };
  const reseal = async (kid: string): Promise<void> => {
    // Write, then read back: a replica that lost a race (or, on FerretDB v1, whose write another
    // overwrote) sees the other's value, which seals the same key, and stops there.
    for (let attempt = 0; attempt < RESEAL_ATTEMPTS; attempt += 1) {
      const stored = await repository.find(kid);
      if (!stored || sealer.isSealedUnderCurrent(stored.sealedPrivateJwk)) return;
      const { privateJwk } = await open(kid, stored.sealedPrivateJwk);
      await repository.replaceSealed(kid, stored.sealedPrivateJwk, await sealer.seal(privateJwk));
    }
    throw identityErrors.create('SIGNING_KEY_UNAVAILABLE', {
      message: `Signing key ${kid} keeps being re-sealed under another key-encryption secret: do all identity replicas have the same KEY_ENCRYPTION_SECRET?`,
    });
  };
  return {
    seal: (privateJwk) => sealer.seal(privateJwk),
    open,
    reseal,
    async resealStale() {
      const stale = (await repository.listSealed()).filter(
        (key) => !sealer.isSealedUnderCurrent(key.sealedPrivateJwk),
      );
      for (const key of stale) await reseal(key.kid);
      return stale.map((key) => key.kid);
    },
  };
}
