import { DependencyUnavailableError } from '@tap/grpc-kit';
import { revocationKey } from '@tap/tokens';
import type { RateLimitRedis } from '@tap/ratelimit';

/**
 * Whether a session id (`sid`) was revoked (logout, refresh-token reuse, an OAuth client's
 * secret rotated or the client deleted). Identity writes the marks; the gateway asks once per
 * bearer request, one EXISTS, one round trip.
 */
export interface SessionRevocations {
  isRevoked(sessionId: string): Promise<boolean>;
}

/**
 * Over Redis. Fails closed: when Redis cannot answer the request is refused with 503 rather
 * than served with a token that may have been revoked.
 */
export function redisSessionRevocations(redis: RateLimitRedis, prefix: string): SessionRevocations {
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
