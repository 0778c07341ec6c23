import { API_REQUEST_DAYS_TTL_S, apiRequestDaysKey } from '@tap/contracts';

/** The Redis commands the tally sends (an ioredis client has them). */
export interface TallyRedis {
  pipeline(): {
    hincrby(key: string, field: string, increment: number): unknown;
    expire(key: string, seconds: number): unknown;
    exec(): Promise<[Error | null, unknown][] | null>;
  };
}

/** How often the counts held in process go to Redis: what a crash loses at most. */
export const DEFAULT_TALLY_FLUSH_MS = 5_000;

/** Each tenant's metered API requests per UTC day, held in process and added to Redis in batches. */
export interface ApiRequestTally {
  /** One request of `tenantId` at `at` (no I/O: a request never waits for the tally). */
  count(tenantId: string, at: Date): void;
  /** Adds what is held to Redis now; counts a failed flush held back for the next one. */
  flush(): Promise<void>;
  /** Stops the schedule and flushes once more. */
  stop(): Promise<void>;
}

/**
 * The gateway's half of the API request history (contract in @tap/contracts, api-request-days.ts):
 * `HINCRBY api-requests:<day> <tenantId> n` for every tenant and day counted since the last flush,
 * in one pipeline, every `flushMs`. Entitlements copies the hashes into the usage history.
 * A Redis failure keeps the counts for the next flush and never reaches a request.
 */
export function createApiRequestTally(
  redis: TallyRedis,
  options: { flushMs?: number; onError?: (error: unknown) => void } = {},
): ApiRequestTally {
  let held = new Map<string, Map<string, number>>();
  let flushing: Promise<void> = Promise.resolve();
  const flushOnce = async () => {
    if (held.size === 0) return;
    const batch = held;
    held = new Map();
    const pipeline = redis.pipeline();
    for (const [day, tenants] of batch) {
      const key = apiRequestDaysKey(day);
      for (const [tenantId, n] of tenants) pipeline.hincrby(key, tenantId, n);
      pipeline.expire(key, API_REQUEST_DAYS_TTL_S);
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([error]) => error)?.[0];
      if (failed) throw failed;
    } catch (error) {
      // Held back whole: an HINCRBY that did apply before the failure may count twice, which a
      // history chart can bear; losing a batch to a Redis hiccup it need not.
      for (const [day, tenants] of batch) for (const [tenantId, n] of tenants) add(day, tenantId, n);
      options.onError?.(error);
    }
  };
  const add = (day: string, tenantId: string, n: number) => {
    const tenants = held.get(day) ?? new Map<string, number>();
    tenants.set(tenantId, (tenants.get(tenantId) ?? 0) + n);
    held.set(day, tenants);
  };
  const flush = () => (flushing = flushing.then(flushOnce));
  const timer = setInterval(() => void flush(), options.flushMs ?? DEFAULT_TALLY_FLUSH_MS);
  timer.unref();
  return {
    count: (tenantId, at) => add(at.toISOString().slice(0, 10), tenantId, 1),
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
