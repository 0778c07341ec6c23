import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Percentile of sorted samples (nearest rank).
 * @param {number[]} sorted
 * @param {number} q
 */
export function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/**
 * p50 and p99 of latencies in ms.
 * @param {number[]} latencies
 */
export function latencySummary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { samples: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/**
 * Polls `check` until it is true or `timeoutMs` passes; resolves with whether it became true.
 * @param {() => Promise<boolean>} check
 * @param {number} timeoutMs
 * @param {number} everyMs
 */
export async function until(check, timeoutMs, everyMs = 5) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}
