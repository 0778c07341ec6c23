import type { RetryBackoff } from './types.js';

// 2^30 times any sane initial delay is already past every ceiling; stop the exponent there.
const MAX_EXPONENT = 30;

/**
 * The delay before a message whose handler failed on delivery `deliveryCount` is offered again.
 * Doubling gives a dependency that is down (the database, a peer service) room to come back
 * without the consumer hammering it, while a one-off failure is retried soon.
 */
export function redeliveryDelayMs(deliveryCount: number, backoff: RetryBackoff): number {
  const exponent = Math.min(Math.max(deliveryCount - 1, 0), MAX_EXPONENT);
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** exponent);
}
