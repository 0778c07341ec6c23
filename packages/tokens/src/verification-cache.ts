import { decodeProtectedHeader } from 'jose';
import type { AccessClaims } from './claims.js';
import type { KeySetVerifier, TokenVerifier } from './token-verifier.js';

/** Verified tokens remembered at most (LRU); about 1 KB each. */
export const DEFAULT_VERIFICATION_CACHE_ENTRIES = 10_000;

interface Entry {
  readonly claims: AccessClaims;
  readonly kid: string;
}

/**
 * Remembers the claims of tokens `verifier` accepted, until each token's `exp`, so a client that
 * sends the same access token on every request (as they do, for 15 minutes) pays for one ES256
 * verification, not one per request. An entry holds only while its signing key is still in the
 * verifier's key set: a key retired at once (an emergency rotation) takes its remembered tokens
 * with it at the verifier's next refresh. Only acceptances are kept: every refusal goes through
 * jose again. Keyed by the whole token, so a token is never confused with another. Revocation is
 * not the verifier's business and is still checked per request by the caller.
 */
export function createVerificationCache(
  verifier: KeySetVerifier,
  options: { maxEntries?: number; now?: () => number } = {},
): TokenVerifier {
  const maxEntries = options.maxEntries ?? DEFAULT_VERIFICATION_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  return {
    async verify(token) {
      const cached = entries.get(token);
      if (cached) {
        // Stricter than the verifier (no clock tolerance): an expired token is verified afresh,
        // and refused there. So is one whose key left the key set.
        if (cached.claims.expiresAt * 1_000 > now() && verifier.trustsKey(cached.kid)) {
          // Map order is insertion order: re-inserting makes this the most recently used.
          entries.delete(token);
          entries.set(token, cached);
          return cached.claims;
        }
        entries.delete(token);
      }
      const claims = await verifier.verify(token);
      // The verifier accepted it, so the header parses; a token without a kid is not remembered.
      const { kid } = decodeProtectedHeader(token);
      if (typeof kid !== 'string') return claims;
      entries.set(token, { claims, kid });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return claims;
    },
  };
}
