/**
 * What each service asked of its stores and of the other services while a read case ran, per
 * request: the `_count` of the services' own Prometheus series (db_client_operation_duration_seconds
 * by system and operation, rpc_client_duration_seconds by method), scraped before and after.
 */
const SERIES =
  /^(db_client_operation_duration_seconds|rpc_client_duration_seconds)_count\{([^}]*)\} (\d+(?:\.\d+)?)$/;

/** @param {Record<string, number | undefined>} adminPorts @returns {Promise<Map<string, number>>} */
export async function scrapeCounts(adminPorts) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  await Promise.all(
    Object.entries(adminPorts).map(async ([service, port]) => {
      if (port === undefined) return;
      const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => '',
      );
      for (const line of text.split('\n')) {
        const m = SERIES.exec(line);
        if (!m) continue;
        const labels = Object.fromEntries(
          [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]),
        );
        const what =
          m[1] === 'rpc_client_duration_seconds'
            ? `rpc ${labels['method'] ?? '?'}`
            : `${labels['system'] ?? '?'} ${labels['operation'] ?? '?'}`;
        const key = `${service}: ${what}`;
        counts.set(key, (counts.get(key) ?? 0) + Number(m[3]));
      }
    }),
  );
  return counts;
}

/**
 * Per request between two scrapes, the entries of at least 0.01 a request.
 * @param {Map<string, number>} before @param {Map<string, number>} after @param {number} requests
 */
export function perRequest(before, after, requests) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const [key, n] of after) {
    const per = (n - (before.get(key) ?? 0)) / Math.max(requests, 1);
    if (per >= 0.01) out[key] = +per.toFixed(2);
  }
  return out;
}

/**
 * Waits (at most `budgetMs`) until the services' own database operations fall below `quietPerSecond`
 * over a 3 s look: making a thousand tenants in a minute, and their first requests, leave each
 * service background work (the relays announce new tenants 100 a pass), which is not what a
 * steady read load costs and which the reads are not measured under. Returns how long it waited and the last rate seen.
 * @param {Record<string, number | undefined>} adminPorts
 * @param {{ budgetMs: number, quietPerSecond?: number }} options
 */
export async function settleBackground(adminPorts, { budgetMs, quietPerSecond = 20 }) {
  const started = Date.now();
  const storeOps = (/** @type {Map<string, number>} */ counts) =>
    [...counts].filter(([key]) => / mongodb /.test(key)).reduce((sum, [, n]) => sum + n, 0);
  let rate = Infinity;
  while (Date.now() - started < budgetMs) {
    const before = storeOps(await scrapeCounts(adminPorts));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    rate = (storeOps(await scrapeCounts(adminPorts)) - before) / 3;
    if (rate < quietPerSecond) break;
  }
  return { waitedMs: Date.now() - started, storeOpsPerSecond: +rate.toFixed(1) };
}
