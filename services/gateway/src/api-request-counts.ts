/** Requests the gateway's limiter counted for one tenant in the current UTC day and minute. */
export interface ApiRequestCounts {
  readonly day: number;
  readonly minute: number;
}

/**
 * Reads, never increments, a tenant's API request counts, for the usage report's `rateLimits`.
 * `authorization` is the caller's own credential, for any call the reader makes on its behalf.
 * The rate limiter (packages/ratelimit) provides it; without one, the gateway passes no counts
 * and entitlements reports 0 (it does not see API traffic itself). Resolve undefined when the
 * counts are unknown.
 */
export type ApiRequestCountReader = (
  tenantId: string,
  authorization: string,
) => Promise<ApiRequestCounts | undefined>;
