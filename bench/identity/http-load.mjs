import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

const MAX_SAMPLES = 2_000_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** Keep-alive connections, one per concurrent caller, as a real client pool would hold. */
export const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * One HTTP request on the shared agent.
 * @param {number} port
 * @param {{ method: string; path: string; headers?: Record<string, string>; body?: string }} options
 * @returns {Promise<{ status: number; text: string }>}
 */
export function send(port, options) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: options.headers ?? {},
        agent,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

/**
 * Runs `call(worker)` from `callers` concurrent loops for `seconds`; each call resolves to the
 * HTTP status. Bounded by time and by sample count.
 * @param {(worker: number) => Promise<number>} call
 * @param {number} callers
 * @param {number} seconds
 */
export async function measure(call, callers, seconds) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<string, number>} */
  const statuses = {};
  const started = performance.now();
  const stopAt = started + seconds * 1_000;
  await Promise.all(
    Array.from({ length: callers }, async (_, worker) => {
      while (performance.now() < stopAt && latencies.length < MAX_SAMPLES) {
        const t0 = performance.now();
        const status = await call(worker);
        latencies.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return { latencies, statuses, elapsedMs: performance.now() - started };
}

/**
 * Requests per second and latency percentiles (ms) of merged samples.
 * @param {{ latencies: number[]; elapsedMs: number; statuses: Record<string, number> }} samples
 */
export function summarize(samples) {
  const sorted = Float64Array.from(samples.latencies).sort();
  /** @param {number} q */
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    requests: sorted.length,
    perSecond: (sorted.length / samples.elapsedMs) * 1_000,
    p50: at(0.5),
    p99: at(0.99),
    statuses: samples.statuses,
  };
}
