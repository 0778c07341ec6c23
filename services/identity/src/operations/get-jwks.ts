import type { JWK } from 'jose';
import type { IdentityContext } from './context.js';

/** The public keys a verifier needs now: the current key, the next one and those still retiring. */
export async function getJwks(ctx: Pick<IdentityContext, 'keyRing' | 'now'>): Promise<JWK[]> {
  return ctx.keyRing.jwks(ctx.now());
}
