import type { OAuthClient } from '../../domain/oauth-client.js';

/** A client secret's keyed hash and the identifier of the secret that keyed it. */
export interface StoredSecretHash {
  readonly secretHash: string;
  readonly hashSecretId: string;
}

/** OAuth clients, one document each. */
export interface OAuthClientsRepository {
  ensureIndexes(): Promise<void>;
  insert(client: OAuthClient, hash: StoredSecretHash): Promise<void>;
  /** The client and its secret hash, for the token endpoint (the tenant comes from the client). */
  findCredentials(clientId: string): Promise<{ client: OAuthClient; secretHash: string } | undefined>;
  /**
   * Replaces the hash of the same secret with one under another TOKEN_HASH_SECRET, only while
   * the secret (`secretId`) and its stored hash are still those that were checked, so a
   * rotation or deletion that came first is never undone. Whether it replaced it.
   */
  rehashSecret(clientId: string, secretId: string, fromHash: string, to: StoredSecretHash): Promise<boolean>;
  /** How many live clients have a secret hash not made under `hashSecretId` (or not marked). */
  countHashedUnderOtherSecret(hashSecretId: string): Promise<number>;
  find(tenantId: string, clientId: string): Promise<OAuthClient | undefined>;
  listByTenant(tenantId: string): Promise<OAuthClient[]>;
  /**
   * Swaps in a new secret, only while `expectedSecretId` is the current one (of two concurrent
   * rotations one wins). The client after the swap, or undefined.
   */
  replaceSecret(
    tenantId: string,
    clientId: string,
    expectedSecretId: string,
    next: StoredSecretHash & { secretId: string },
    now: Date,
  ): Promise<OAuthClient | undefined>;
  /**
   * First step of a deletion: hides the client from every reader and returns it (also when an
   * earlier attempt already marked it, so a retried deletion can finish).
   */
  markDeleted(tenantId: string, clientId: string, now: Date): Promise<OAuthClient | undefined>;
  /** Last step of a deletion: removes the client once its deletion was announced (else the announcer does). */
  purge(tenantId: string, clientId: string): Promise<void>;
}
