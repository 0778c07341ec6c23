import { randomSecret } from '../crypto/keyed-hash.js';
import type { OAuthClient } from '../domain/oauth-client.js';
import type { IdentityContext } from './context.js';
import type { StoredSecretHash } from './ports/oauth-clients-repository.js';

/** A client with the secret that was just made for it: the only time the secret is seen. */
export interface ClientWithSecret {
  readonly client: OAuthClient;
  readonly clientSecret: string;
}

/** A new client secret and its keyed hash under the current TOKEN_HASH_SECRET. */
export function newSecret(ctx: IdentityContext): { clientSecret: string; hash: StoredSecretHash } {
  const clientSecret = randomSecret();
  return { clientSecret, hash: hashUnderCurrentSecret(ctx, clientSecret) };
}

/** The stored form of a client secret: its keyed hash and the id of the secret that keyed it. */
export function hashUnderCurrentSecret(ctx: IdentityContext, clientSecret: string): StoredSecretHash {
  return { secretHash: ctx.hasher.digest('client-secret', clientSecret), hashSecretId: ctx.hasher.secretId };
}
