import { DependencyUnavailableError } from '@tap/errors';
import { REVOCATION_TTL_SECONDS, revocationKey } from '@tap/tokens';
import type { Redis } from 'ioredis';
import type { SessionRevoker } from '../operations/ports/session-revocations.js';

/** Marks go to `<prefix>:<sid>` with REVOCATION_TTL_SECONDS; a failed write fails the call. */
export function redisSessionRevoker(redis: Redis, prefix: string): SessionRevoker {
  return {
    async revoke(sessionIds) {
      if (sessionIds.length === 0) return;
      const pipeline = redis.pipeline();
      for (const sid of sessionIds)
        pipeline.set(revocationKey(prefix, sid), '1', 'EX', REVOCATION_TTL_SECONDS);
      let results: Awaited<ReturnType<typeof pipeline.exec>>;
      try {
        results = await pipeline.exec();
      } catch (error) {
        throw new DependencyUnavailableError('redis: could not record the revocation', { cause: error });
      }
      const failed = results?.find(([error]) => error !== null);
      // A revocation that did not land must fail the call: the caller retries, and nobody is
      // told "logged out" while the tokens still work.
      if (!results || failed)
        throw new DependencyUnavailableError('redis: could not record the revocation', {
          cause: failed?.[0],
        });
    },
  };
}
