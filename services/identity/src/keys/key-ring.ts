import {
  ACCESS_TOKEN_TTL_SECONDS,
  createTokenSigner,
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  generateSigningKey,
  importPrivateKey,
  type KeySealer,
  type TokenSigner,
} from '@tap/tokens';
import type { JWK } from 'jose';
import { identityErrors } from '../domain/errors.js';
import type { SigningKeysRepository, SigningPointer } from '../operations/ports/signing-keys-repository.js';
import { sealedKeys } from './sealed-keys.js';

/**
 * A new key is published in the JWKS this long before it signs. Verifiers refetch the key set
 * at most once a second on an unknown kid; publishing first means none of them can meet a
 * token whose key it has not been able to fetch yet.
 */
export const KEY_PUBLISH_AHEAD_MS = 2_000;
/** How often each identity replica re-reads which key signs (a rotation made by another replica). */
export const KEY_POLL_INTERVAL_MS = 5_000;
/**
 * The least time a replaced key keeps verifying after the new one activates: every token it
 * signed has expired by then, including those signed by replicas that had not polled yet.
 */
export const MIN_KEY_RETENTION_MS =
  (ACCESS_TOKEN_TTL_SECONDS + DEFAULT_CLOCK_TOLERANCE_SECONDS + 60) * 1_000 + KEY_POLL_INTERVAL_MS;

export interface RotationResult {
  readonly kid: string;
  readonly activatesAt: Date;
  readonly previousKid: string;
  readonly previousRetiresAt: Date;
  /** Every key that left the JWKS at once (an emergency rotation); empty otherwise. */
  readonly retiredKids: readonly string[];
}

export interface KeyRing {
  /**
   * Re-seals under the current key-encryption secret every stored key sealed under the previous
   * one (or before seals were marked); returns their kids. Run at start, before `load`.
   */
  resealStoredKeys(): Promise<string[]>;
  /** Ensures a current key exists (creating the first one) and loads the signing keys. */
  load(now: Date): Promise<void>;
  /** Re-reads which key signs (another replica may have rotated). */
  refresh(now: Date): Promise<void>;
  /** The signer for tokens minted at `now`. */
  signer(now: Date): TokenSigner;
  jwks(now: Date): Promise<JWK[]>;
  /**
   * Zero-downtime rotation: a new key is published now and signs from `activatesAt`; the old
   * one stops signing then and keeps verifying for `retentionMs` (at least MIN_KEY_RETENTION_MS).
   */
  rotate(now: Date, retentionMs: number): Promise<RotationResult>;
  /**
   * Emergency rotation (a key compromise): a new key signs from `now`, with no publish-ahead, and
   * every other key leaves the JWKS at once. Verifiers stop accepting the old keys' tokens at
   * their next key-set refresh; other replicas sign with the new key from their next poll.
   */
  rotateRetiringNow(now: Date): Promise<RotationResult>;
}

/**
 * Identity's signing keys: one signs at a time; every key not yet retired verifies (JWKS), so a
 * rotation never invalidates tokens in flight.
 */
export function createKeyRing(options: {
  repository: SigningKeysRepository;
  /** Seals with KEY_ENCRYPTION_SECRET; opens with it or KEY_ENCRYPTION_SECRET_PREVIOUS. */
  sealer: KeySealer;
  issuer: string;
  audience: string;
}): KeyRing {
  const { repository } = options;
  const sealed = sealedKeys(repository, options.sealer);
  const signers = new Map<string, TokenSigner>();
  let pointer: SigningPointer | undefined;

  const loadSigner = async (kid: string): Promise<void> => {
    if (signers.has(kid)) return;
    const stored = await repository.find(kid);
    if (!stored) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
    const { privateJwk, sealedUnderCurrent } = await sealed.open(kid, stored.sealedPrivateJwk);
    // Sealed under the previous secret after this replica started: a key an old replica created
    // during the roll. Re-sealed now, so that dropping the previous secret cannot strand it.
    if (!sealedUnderCurrent) await sealed.reseal(kid);
    const privateKey = await importPrivateKey(privateJwk);
    signers.set(
      kid,
      createTokenSigner({ kid, privateKey, issuer: options.issuer, audience: options.audience }),
    );
  };

  const adopt = async (next: SigningPointer): Promise<void> => {
    await loadSigner(next.kid);
    if (next.previousKid) await loadSigner(next.previousKid);
    pointer = next;
    // Only the keys the pointer names may sign; forget any others (bounded memory).
    for (const kid of signers.keys()) if (kid !== next.kid && kid !== next.previousKid) signers.delete(kid);
  };

  const createKey = async (now: Date): Promise<string> => {
    const fresh = await generateSigningKey();
    await repository.insert({
      kid: fresh.kid,
      publicJwk: fresh.publicJwk,
      sealedPrivateJwk: await sealed.seal(fresh.privateJwk),
      createdAt: now,
      retiresAt: null,
    });
    return fresh.kid;
  };

  // One rotation at a time: the next must wait until the last key has started signing.
  const currentSettled = async (now: Date): Promise<SigningPointer> => {
    const current = await repository.currentPointer();
    if (!current) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
    if (current.activatesAt && now < current.activatesAt)
      throw identityErrors.create('SIGNING_KEY_ROTATION_CONFLICT');
    return current;
  };

  const ring: KeyRing = {
    resealStoredKeys: () => sealed.resealStale(),
    async load(now) {
      if (!(await repository.currentPointer())) {
        const kid = await createKey(now);
        const winner = await repository.claimCurrentIfNone(kid, now);
        // Another replica won the race: drop the key nobody will use.
        if (winner !== kid) await repository.remove(kid);
      }
      await ring.refresh(now);
    },
    async refresh() {
      const next = await repository.currentPointer();
      if (!next) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
      await adopt(next);
    },
    signer(now) {
      if (!pointer) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
      const pending =
        pointer.activatesAt !== undefined && now < pointer.activatesAt && pointer.previousKid !== undefined;
      const signer = signers.get(pending ? pointer.previousKid! : pointer.kid);
      if (!signer) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
      return signer;
    },
    async jwks(now) {
      return (await repository.listVerifying(now)).map((key) => key.publicJwk);
    },
    async rotate(now, retentionMs) {
      const current = await currentSettled(now);
      const kid = await createKey(now);
      const activatesAt = new Date(now.getTime() + KEY_PUBLISH_AHEAD_MS);
      if (!(await repository.switchCurrent(current.kid, kid, activatesAt, now))) {
        await repository.remove(kid);
        throw identityErrors.create('SIGNING_KEY_ROTATION_CONFLICT');
      }
      const previousRetiresAt = new Date(activatesAt.getTime() + Math.max(retentionMs, MIN_KEY_RETENTION_MS));
      await repository.retire(current.kid, previousRetiresAt);
      await ring.refresh(now);
      return { kid, activatesAt, previousKid: current.kid, previousRetiresAt, retiredKids: [] };
    },
    async rotateRetiringNow(now) {
      const current = await currentSettled(now);
      const kid = await createKey(now);
      if (!(await repository.switchCurrentNow(current.kid, kid, now))) {
        await repository.remove(kid);
        throw identityErrors.create('SIGNING_KEY_ROTATION_CONFLICT');
      }
      // Not only the key that signed until now: earlier keys still in their retention go too, as
      // a compromise of one sealed key may well be a compromise of all of them.
      const retiredKids = await repository.retireAllExcept(kid, now);
      await ring.refresh(now);
      return { kid, activatesAt: now, previousKid: current.kid, previousRetiresAt: now, retiredKids };
    },
  };
  return ring;
}
