import { identityErrors } from '../domain/errors.js';
import { grantScopes } from '../domain/oauth-client.js';
import { hashUnderCurrentSecret } from './client-secrets.js';
import type { IdentityContext } from './context.js';

/** Client ids and secrets are short; longer input is not looked up (it cannot match). */
const MAX_CREDENTIAL_LENGTH = 200;

/**
 * The client credentials grant. An unknown client and a wrong secret cost the same (one lookup,
 * one HMAC per configured secret) and fail the same way; the scope is checked only once the
 * client is authenticated. A secret whose stored hash was made under TOKEN_HASH_SECRET_PREVIOUS
 * is re-hashed under the current secret here, the one moment its plaintext is in hand.
 */
export async function issueClientToken(
  ctx: IdentityContext,
  input: { clientId: string; clientSecret: string; scope: string },
): Promise<{ accessToken: string; expiresIn: number; scopes: readonly string[] }> {
  const lookup =
    input.clientId.length <= MAX_CREDENTIAL_LENGTH
      ? ctx.clients.findCredentials(input.clientId)
      : Promise.resolve(undefined);
  const presentedSecret = input.clientSecret.slice(0, MAX_CREDENTIAL_LENGTH + 1);
  const presented = ctx.hasher.digest('client-secret', presentedSecret);
  const presentedBefore = ctx.hasher.previousDigest('client-secret', presentedSecret);
  const found = await lookup;
  // Both comparisons always run: the time does not tell which secret the stored hash is under.
  const underCurrent = found !== undefined && ctx.hasher.equal(found.secretHash, presented);
  const underPrevious =
    found !== undefined &&
    presentedBefore !== undefined &&
    ctx.hasher.equal(found.secretHash, presentedBefore);
  if (!found || !(underCurrent || underPrevious)) throw identityErrors.create('CLIENT_AUTH_FAILED');
  if (!underCurrent)
    await ctx.locks.run(`client:${found.client.clientId}`, () =>
      ctx.clients.rehashSecret(
        found.client.clientId,
        found.client.secretId,
        found.secretHash,
        hashUnderCurrentSecret(ctx, presentedSecret),
      ),
    );
  const { client } = found;
  const scopes = grantScopes(input.scope, client.scopes);
  const now = ctx.now();
  const { token, expiresIn } = await ctx.keyRing.signer(now).sign(
    {
      subject: client.clientId,
      kind: 'client',
      tenantId: client.tenantId,
      role: '',
      scopes,
      sessionId: client.secretId,
    },
    now,
  );
  return { accessToken: token, expiresIn, scopes };
}
