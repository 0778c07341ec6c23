import autocannon from 'autocannon';

/**
 * One case: `connections` keep-alive connections sending `request` for `seconds` (autocannon).
 * `authorizations`, when given, rotate per request so the tenants share the load.
 * @param {{ port: number; method?: string; path: string; body?: string; authorizations?: string[]; connections: number; seconds: number }} options
 */
export async function hammer(options) {
  let next = 0;
  const tokens = options.authorizations ?? [];
  const result = await autocannon({
    url: `http://127.0.0.1:${options.port}`,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [
      {
        method: /** @type {any} */ (options.method ?? 'GET'),
        path: options.path,
        ...(options.body
          ? { body: options.body, headers: { 'content-type': 'application/json' } }
          : { headers: {} }),
        setupRequest: (req) => {
          if (tokens.length === 0) return req;
          next = (next + 1) % tokens.length;
          return { ...req, headers: { ...req.headers, authorization: tokens[next] ?? '' } };
        },
      },
    ],
  });
  /** @type {Record<string, number>} */
  const statuses = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count;
  return {
    perSecond: Math.round(result.requests.total / options.seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}
