import type { JWK } from 'jose';

export interface StoredSigningKey {
  readonly kid: string;
  readonly publicJwk: JWK;
  /** The private JWK sealed as a JWE under the key-encryption secret; never stored in clear. */
  readonly sealedPrivateJwk: string;
  readonly createdAt: Date;
  /** When set, the key stops appearing in the JWKS after this instant. */
  readonly retiresAt: Date | null;
}

/** Which key signs: `kid` from `activatesAt` on (always, when unset), `previousKid` before. */
export interface SigningPointer {
  readonly kid: string;
  readonly previousKid: string | undefined;
  readonly activatesAt: Date | undefined;
}

export interface SigningKeysRepository {
  insert(key: StoredSigningKey): Promise<void>;
  /** Makes `kid` current only if no key is current yet; returns the current kid either way. */
  claimCurrentIfNone(kid: string, now: Date): Promise<string>;
  currentPointer(): Promise<SigningPointer | undefined>;
  /**
   * Compare-and-set of the pointer: only while `fromKid` is the current kid, so of two
   * concurrent rotations one wins. True when this call moved it.
   */
  switchCurrent(fromKid: string, toKid: string, activatesAt: Date, now: Date): Promise<boolean>;
  /**
   * Compare-and-set like `switchCurrent`, for an emergency rotation: `toKid` signs from now on and
   * the pointer names no previous key, so no replica signs with it again once it has polled.
   */
  switchCurrentNow(fromKid: string, toKid: string, now: Date): Promise<boolean>;
  /** Sets when a key leaves the JWKS. */
  retire(kid: string, at: Date): Promise<void>;
  /** Every key but `kid` that would still verify after `at` leaves the JWKS at `at`; returns their kids. */
  retireAllExcept(kid: string, at: Date): Promise<string[]>;
  find(kid: string): Promise<StoredSigningKey | undefined>;
  /** Keys that still verify at `now` (not retired yet). */
  listVerifying(now: Date): Promise<StoredSigningKey[]>;
  /** Every stored key, retired or not, with its sealed private half (re-sealing at start). */
  listSealed(): Promise<Array<Pick<StoredSigningKey, 'kid' | 'sealedPrivateJwk'>>>;
  /**
   * Replaces a key's sealed private half, only while it is still `expected`; true when this call
   * wrote. The new value must seal the same private key (a re-sealing), which is what makes a
   * lost race harmless: see the note in the implementation.
   */
  replaceSealed(kid: string, expected: string, next: string): Promise<boolean>;
  remove(kid: string): Promise<void>;
}
