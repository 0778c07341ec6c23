import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import { SIGNING_ALGORITHM } from './claims.js';

/** A signing key pair as JWKs: the private half stays inside identity (encrypted at rest). */
export interface SigningKeyMaterial {
  readonly kid: string;
  readonly publicJwk: JWK;
  readonly privateJwk: JWK;
}

/** Generates a fresh ES256 key pair with a random kid. */
export async function generateSigningKey(): Promise<SigningKeyMaterial> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  return { kid, publicJwk, privateJwk };
}

export async function importPrivateKey(privateJwk: JWK): Promise<CryptoKey> {
  return (await importJWK(privateJwk, SIGNING_ALGORITHM)) as CryptoKey;
}
