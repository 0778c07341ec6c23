/** What a keyed hash protects; each purpose gets its own subkey, so one digest never stands for another. */
export type HashPurpose =
  'refresh-token' | 'refresh-token-child' | 'client-secret' | 'magic-link' | 'invitation';

/**
 * HMAC-SHA256 under a server secret, for bearer artefacts that are long and random (refresh
 * tokens, OAuth client secrets). A slow password hash would add nothing for 256-bit random
 * values and would cap the token endpoint at a few dozen grants per core; a keyed hash makes a
 * stolen database useless without the secret (Hydra stores only such signatures too).
 */
export interface KeyedHasher {
  /** base64url HMAC of `value` under the purpose's subkey of the current secret: what is stored. */
  digest(purpose: HashPurpose, value: string): string;
  /**
   * The same under TOKEN_HASH_SECRET_PREVIOUS while it is being rotated out, else undefined: what
   * a value stored before the rotation was hashed with. Never used to hash anything new.
   */
  previousDigest(purpose: HashPurpose, value: string): string | undefined;
  /**
   * Names the current secret without revealing it (HKDF under its own label), stored next to a
   * client's secret hash so the clients not yet re-hashed under the current secret can be counted.
   */
  readonly secretId: string;
  /** Constant-time comparison of two digests (equal length or not). */
  equal(a: string, b: string): boolean;
}
