import { ACCESS_TOKEN_TTL_SECONDS } from './claims.js';
import { DEFAULT_CLOCK_TOLERANCE_SECONDS } from './token-verifier.js';

/**
 * Prefix of the Redis keys that mark a session id (`sid`) revoked. Identity writes them (logout,
 * refresh-token reuse, OAuth client deletion or rotation); the gateway reads one per bearer request.
 */
export const DEFAULT_REVOCATION_KEY_PREFIX = 'tap:revoked-sid';

/**
 * How long a revocation mark lives. No new token is minted for a revoked session id, so the mark
 * only has to outlive the access tokens already issued: their lifetime, the verifiers' clock
 * tolerance, and a margin for clocks that disagree by more.
 */
export const REVOCATION_TTL_SECONDS = ACCESS_TOKEN_TTL_SECONDS + DEFAULT_CLOCK_TOLERANCE_SECONDS + 60;

/** The Redis key that marks `sessionId` revoked. */
export function revocationKey(prefix: string, sessionId: string): string {
  return `${prefix}:${sessionId}`;
}
