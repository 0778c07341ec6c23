import { DependencyUnavailableError } from '@tap/errors';
import { revocationKey, type AccessClaims, type TokenVerifier } from '@tap/tokens';
import { authErrors } from './errors.js';

/**
 * Whether a session id (`sid`) was revoked (logout, refresh-token reuse, an OAuth client's
 * secret rotated or the client deleted). Identity writes the marks in Redis; every service that
 * accepts a user token reads them, one EXISTS per call.
 */
export interface SessionRevocations {
  isRevoked(sessionId: string): Promise<boolean>;
}

/** The one Redis command the reader needs (an ioredis client fits). */
export interface RevocationRedis {
  exists(key: string): Promise<number>;
}

/**
 * Over Redis. Fails closed: when Redis cannot answer, the call is refused as unavailable rather
 * than served with a token that may have been revoked.
 */
export function redisSessionRevocations(redis: RevocationRedis, prefix: string): SessionRevocations {
  return {
    async isRevoked(sessionId) {
      try {
        return (await redis.exists(revocationKey(prefix, sessionId))) > 0;
      } catch (error) {
        throw new DependencyUnavailableError('redis: the revocation list cannot be read', { cause: error });
      }
    },
  };
}

/**
 * `verifier`, and then the revocation list: a token of a signed-out session is refused
 * (TOKEN_INVALID) by every service, not only at the gateway, so a caller that reaches a service
 * directly gains nothing from a stolen token its owner has revoked.
 */
export function revocationCheckingVerifier(
  verifier: TokenVerifier,
  revocations: SessionRevocations,
): TokenVerifier {
  return {
    async verify(token): Promise<AccessClaims> {
      const claims = await verifier.verify(token);
      if (await revocations.isRevoked(claims.sessionId)) throw authErrors.create('TOKEN_INVALID');
      return claims;
    },
  };
}
