import type { AccessClaims } from './claims.js';
import type { TokenVerifier } from './token-verifier.js';

/** Verified tokens remembered at most (LRU); about 1 KB each. */
export const DEFAULT_VERIFICATION_CACHE_ENTRIES = 10_000;

/**
 * Remembers the claims of tokens `verifier` accepted, until each token's `exp`, so a client that
 * sends the same access token on every request (as they do, for 15 minutes) pays for one ES256
 * verification, not one per request. Only acceptances are kept: every refusal goes through jose
 * again. Keyed by the whole token, so a token is never confused with another. Revocation is not
 * the verifier's business and is still checked per request by the caller.
 */
export function createVerificationCache(
  verifier: TokenVerifier,
  options: { maxEntries?: number; now?: () => number } = {},
): TokenVerifier {
  const maxEntries = options.maxEntries ?? DEFAULT_VERIFICATION_CACHE_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, AccessClaims>();
  return {
    async verify(token) {
      const cached = entries.get(token);
      if (cached) {
        // Stricter than the verifier (no clock tolerance): an expired token is verified afresh,
        // and refused there.
        if (cached.expiresAt * 1_000 > now()) {
          // Map order is insertion order: re-inserting makes this the most recently used.
          entries.delete(token);
          entries.set(token, cached);
          return cached;
        }
        entries.delete(token);
      }
      const claims = await verifier.verify(token);
      entries.set(token, claims);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return claims;
    },
  };
}
