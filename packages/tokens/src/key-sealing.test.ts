import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { CompactEncrypt, decodeProtectedHeader, type JWK } from 'jose';
import { keyEncryptionKeyId } from './key-encryption-secret.js';
import { createKeySealer, KeyUnsealError, sealPrivateJwk, unsealPrivateJwk } from './key-sealing.js';
import { generateSigningKey } from './signing-key.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

/** How keys were sealed before the header named the secret: same key and algorithms, no kid. */
async function sealUnmarked(privateJwk: JWK, secret: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'jwk+json' })
    .encrypt(new Uint8Array(createHash('sha256').update(secret, 'utf8').digest()));
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('sealing private keys', () => {
  it('marks the sealed key with the identifier of the secret, never with the secret', async () => {
    const { privateJwk } = await generateSigningKey();
    const sealed = await sealPrivateJwk(privateJwk, A);
    expect(decodeProtectedHeader(sealed)).toEqual({
      alg: 'dir',
      enc: 'A256GCM',
      cty: 'jwk+json',
      kid: keyEncryptionKeyId(A),
    });
    expect(sealed).not.toContain(privateJwk.d);
    await expect(unsealPrivateJwk(sealed, A)).resolves.toEqual(privateJwk);
  });

  it('opens keys sealed under the previous secret during a rotation, and says they need re-sealing', async () => {
    const { privateJwk } = await generateSigningKey();
    const sealer = createKeySealer({ current: B, previous: A });
    await expect(sealer.unseal(await sealPrivateJwk(privateJwk, A))).resolves.toEqual({
      privateJwk,
      sealedUnderCurrent: false,
    });
    const resealed = await sealer.seal(privateJwk);
    expect(sealer.isSealedUnderCurrent(resealed)).toBe(true);
    await expect(createKeySealer({ current: B }).unseal(resealed)).resolves.toEqual({
      privateJwk,
      sealedUnderCurrent: true,
    });
  });

  it('opens keys sealed before the mark existed with the current secret, then the previous one', async () => {
    const { privateJwk } = await generateSigningKey();
    const underA = await sealUnmarked(privateJwk, A);
    expect(createKeySealer({ current: A }).isSealedUnderCurrent(underA)).toBe(false);
    await expect(createKeySealer({ current: A }).unseal(underA)).resolves.toEqual({
      privateJwk,
      sealedUnderCurrent: false,
    });
    await expect(createKeySealer({ current: B, previous: A }).unseal(underA)).resolves.toEqual({
      privateJwk,
      sealedUnderCurrent: false,
    });
  });

  it('refuses a key that neither secret opens, naming only the identifier of the secret that sealed it', async () => {
    const { privateJwk } = await generateSigningKey();
    const sealer = createKeySealer({ current: C, previous: B });
    const marked = await failureOf(sealer.unseal(await sealPrivateJwk(privateJwk, A)));
    expect(marked).toBeInstanceOf(KeyUnsealError);
    expect((marked as KeyUnsealError).sealedBy).toBe(keyEncryptionKeyId(A));
    expect((marked as Error).message).not.toContain(A);
    const unmarked = await failureOf(sealer.unseal(await sealUnmarked(privateJwk, A)));
    expect((unmarked as KeyUnsealError).code).toBe('KEY_SEALED_UNDER_UNKNOWN_SECRET');
    expect((unmarked as KeyUnsealError).sealedBy).toBeUndefined();
    expect(await failureOf(sealer.unseal('not a jwe'))).toBeInstanceOf(KeyUnsealError);
  });

  it('refuses a key whose mark names the current secret but whose content was changed', async () => {
    const { privateJwk } = await generateSigningKey();
    const sealed = await sealPrivateJwk(privateJwk, A);
    const parts = sealed.split('.');
    parts[3] = parts[3]!.startsWith('A') ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    const failure = await failureOf(createKeySealer({ current: A }).unseal(parts.join('.')));
    expect(failure).toBeInstanceOf(KeyUnsealError);
  });
});
