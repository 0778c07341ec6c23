import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import { grantScopes, newOAuthClient, type OAuthClient } from '../domain/oauth-client.js';
import type { StoredSecretHash } from './ports/oauth-clients-repository.js';
import type { IdentityContext } from './context.js';

/** A client with the secret that was just made for it: the only time the secret is seen. */
export interface ClientWithSecret {
  readonly client: OAuthClient;
  readonly clientSecret: string;
}

/** Client ids and secrets are short; longer input is not looked up (it cannot match). */
const MAX_CREDENTIAL_LENGTH = 200;

function newSecret(ctx: IdentityContext): { clientSecret: string; hash: StoredSecretHash } {
  const clientSecret = randomSecret();
  return { clientSecret, hash: hashUnderCurrentSecret(ctx, clientSecret) };
}

function hashUnderCurrentSecret(ctx: IdentityContext, clientSecret: string): StoredSecretHash {
  return { secretHash: ctx.hasher.digest('client-secret', clientSecret), hashSecretId: ctx.hasher.secretId };
}

/** A new client for `tenantId` with a new secret (shown to the caller once). */
export async function createClient(
  ctx: IdentityContext,
  tenantId: string,
  input: { name: string; scopes: readonly string[] },
): Promise<ClientWithSecret> {
  const client = newOAuthClient(input, { clientId: ctx.newId(), tenantId, secretId: ctx.newId() }, ctx.now());
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  const { clientSecret, hash } = newSecret(ctx);
  await ctx.clients.insert(client, hash);
  return { client, clientSecret };
}

/**
 * A new secret; the old one stops at once, and so do the tokens it obtained (their `sid` is the
 * old secret's id). The revocation is recorded before the swap: if Redis is down nothing changes
 * and the caller retries; if the swap then fails, a retry finishes it.
 */
export async function rotateClientSecret(
  ctx: IdentityContext,
  tenantId: string,
  clientId: string,
): Promise<ClientWithSecret> {
  return ctx.locks.run(`client:${clientId}`, async () => {
    const current = await ctx.clients.find(tenantId, clientId);
    if (!current) throw identityErrors.create('OAUTH_CLIENT_NOT_FOUND');
    await ctx.revoker.revoke([current.secretId]);
    const { clientSecret, hash } = newSecret(ctx);
    const client = await ctx.clients.replaceSecret(
      tenantId,
      clientId,
      current.secretId,
      { ...hash, secretId: ctx.newId() },
      ctx.now(),
    );
    if (!client) throw identityErrors.create('OAUTH_CLIENT_ROTATION_CONFLICT');
    return { client, clientSecret };
  });
}

/**
 * Deletes a client and revokes its tokens, in three retry-safe steps: hide it (no new tokens),
 * revoke its current tokens in Redis, remove it. A failure in between leaves it hidden, and a
 * retried deletion finishes the job.
 */
export async function deleteClient(ctx: IdentityContext, tenantId: string, clientId: string): Promise<void> {
  await ctx.locks.run(`client:${clientId}`, async () => {
    const client = await ctx.clients.markDeleted(tenantId, clientId, ctx.now());
    if (!client) throw identityErrors.create('OAUTH_CLIENT_NOT_FOUND');
    await ctx.revoker.revoke([client.secretId]);
    await ctx.clients.purge(tenantId, clientId);
  });
}

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
