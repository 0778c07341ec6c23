import { apiRequestDaysKey } from '@tap/contracts';
import type { ApiRequestDaysSource } from '../operations/ports/api-request-days-source.js';

/** The Redis command the copy needs (an ioredis client has it). */
export interface HashScanner {
  hscan(key: string, cursor: string, countToken: 'COUNT', count: number): Promise<[string, string[]]>;
}

const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SCAN_PAGE = 500;

/**
 * Reads the gateway's day hashes page by page (HSCAN, never a whole-hash read that blocks Redis).
 * A field that is not a tenant id or a count is skipped: the hash is another service's output.
 */
export function apiRequestDaysSource(redis: HashScanner): ApiRequestDaysSource {
  return {
    async counts(day) {
      const counts = new Map<string, number>();
      let cursor = '0';
      do {
        const [next, fields] = await redis.hscan(apiRequestDaysKey(day), cursor, 'COUNT', SCAN_PAGE);
        for (let i = 0; i + 1 < fields.length; i += 2) {
          const [tenantId, value] = [fields[i] ?? '', Number(fields[i + 1])];
          if (TENANT_ID.test(tenantId) && Number.isSafeInteger(value) && value >= 0)
            counts.set(tenantId, value);
        }
        cursor = next;
      } while (cursor !== '0');
      return counts;
    },
  };
}
