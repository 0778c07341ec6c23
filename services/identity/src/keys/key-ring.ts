import {
  createTokenSigner,
  generateSigningKey,
  importPrivateKey,
  sealPrivateJwk,
  unsealPrivateJwk,
  type TokenSigner,
} from '@tap/tokens';
import type { JWK } from 'jose';
import { identityErrors } from '../domain/errors.js';
import type { SigningKeysRepository } from '../store/signing-keys-repository.js';

export interface KeyRing {
  /** Ensures a current key exists (creating the first one) and loads it. */
  load(now: Date): Promise<void>;
  signer(): TokenSigner;
  jwks(now: Date): Promise<JWK[]>;
}

/**
 * Identity's signing keys: the current key signs; every key not yet retired verifies (JWKS), so
 * a rotation never invalidates tokens in flight.
 */
export function createKeyRing(options: {
  repository: SigningKeysRepository;
  keyEncryptionSecret: string;
  issuer: string;
  audience: string;
}): KeyRing {
  let current: { kid: string; signer: TokenSigner } | undefined;

  const loadKid = async (kid: string): Promise<void> => {
    if (current?.kid === kid) return;
    const stored = await options.repository.find(kid);
    if (!stored) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
    const privateKey = await importPrivateKey(await unsealPrivateJwk(stored.sealedPrivateJwk, options.keyEncryptionSecret));
    current = { kid, signer: createTokenSigner({ kid, privateKey, issuer: options.issuer, audience: options.audience }) };
  };

  return {
    async load(now) {
      let kid = await options.repository.currentKid();
      if (!kid) {
        const fresh = await generateSigningKey();
        await options.repository.insert({
          kid: fresh.kid,
          publicJwk: fresh.publicJwk,
          sealedPrivateJwk: await sealPrivateJwk(fresh.privateJwk, options.keyEncryptionSecret),
          createdAt: now,
          retiresAt: null,
        });
        kid = await options.repository.claimCurrentIfNone(fresh.kid, now);
        // Another replica won the race: drop the key nobody will use.
        if (kid !== fresh.kid) await options.repository.remove(fresh.kid);
      }
      await loadKid(kid);
    },
    signer() {
      if (!current) throw identityErrors.create('SIGNING_KEY_UNAVAILABLE');
      return current.signer;
    },
    async jwks(now) {
      return (await options.repository.listVerifying(now)).map((key) => key.publicJwk);
    },
  };
}
