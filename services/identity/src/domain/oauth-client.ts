import { identityErrors } from './errors.js';
import { isScope, parseScopes, type Scope } from './roles.js';

/** An OAuth 2.0 client of a tenant (its secret is never part of it). */
export interface OAuthClient {
  readonly clientId: string;
  readonly tenantId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  /**
   * Identifies the current secret. Tokens carry it as their session id (`sid`), so rotating
   * the secret or deleting the client revokes exactly the tokens the old secret obtained.
   */
  readonly secretId: string;
  readonly secretRotatedAt: Date;
}

const MAX_NAME_LENGTH = 100;
/** A token request's `scope` is short; a longer one is not a list of our scope names. */
const MAX_SCOPE_PARAMETER_LENGTH = 1_000;

/** Validates a new client's name and scopes (at least one, each from the spec's table). */
export function newOAuthClient(
  input: { name: string; scopes: readonly string[] },
  ids: { clientId: string; tenantId: string; secretId: string },
  now: Date,
): OAuthClient {
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    throw identityErrors.create('OAUTH_CLIENT_NAME_INVALID');
  const scopes = parseScopes(input.scopes);
  if (scopes.length === 0) throw identityErrors.create('OAUTH_CLIENT_SCOPES_REQUIRED');
  return { ...ids, name, scopes, createdAt: now, secretRotatedAt: now };
}

/**
 * The scopes a client-credentials grant gets: what `requested` (space-separated, RFC 6749 §3.3)
 * names, each of which the client must hold; everything the client holds when nothing is named.
 */
export function grantScopes(requested: string, held: readonly Scope[]): readonly Scope[] {
  if (requested.length > MAX_SCOPE_PARAMETER_LENGTH) throw identityErrors.create('SCOPE_NOT_GRANTED');
  const names = requested.split(' ').filter((name) => name.length > 0);
  if (names.length === 0) return held;
  const granted = new Set<Scope>();
  for (const name of names) {
    if (!isScope(name) || !held.includes(name))
      throw identityErrors.create('SCOPE_NOT_GRANTED', { details: { scope: name.slice(0, 100) } });
    granted.add(name);
  }
  // In the client's own order, so the same request always yields the same `scope` string.
  return held.filter((scope) => granted.has(scope));
}
