import { performance } from 'node:perf_hooks';

const WARM_UP_MS = 100;
const MAX_SAMPLES = 2_000_000;

/** @typedef {(i: number) => Promise<unknown>} Check */
/** @typedef {{ latencies: number[]; elapsedMs: number }} Samples */

/**
 * Runs `check(i)` from `callers` concurrent loops for `seconds` (after a short warm-up) and
 * returns each check's latency in ms and the elapsed time. Bounded by time and by sample count.
 * @param {Check} check
 * @param {number} callers
 * @param {number} seconds
 * @returns {Promise<Samples>}
 */
export async function measure(check, callers, seconds) {
  let next = 0;
  const warmUntil = performance.now() + WARM_UP_MS;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < warmUntil) await check((next += 1));
    }),
  );
  /** @type {number[]} */
  const latencies = [];
  const started = performance.now();
  const stopAt = started + seconds * 1_000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < stopAt && latencies.length < MAX_SAMPLES) {
        const t0 = performance.now();
        await check((next += 1));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started };
}

/**
 * Checks per second and latency percentiles (ms).
 * @param {Samples} samples
 */
export function summarize({ latencies, elapsedMs }) {
  const sorted = Float64Array.from(latencies).sort();
  /** @param {number} q */
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    checks: sorted.length,
    perSecond: (sorted.length / elapsedMs) * 1_000,
    p50: at(0.5),
    p99: at(0.99),
    p999: at(0.999),
  };
}
