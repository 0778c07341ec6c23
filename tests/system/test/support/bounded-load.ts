/** One request's outcome: its HTTP status, or `network error`. */
export interface LoadOutcome {
  readonly path: string;
  readonly status: number | 'network error';
  readonly at: number;
  /** Milliseconds from sending to the answer. */
  readonly ms: number;
}

/** A running load; `stop()` ends it and resolves with every outcome. */
export interface BoundedLoad {
  stop(): Promise<LoadOutcome[]>;
  count(): number;
}

/**
 * GETs `paths` in turn against a loopback `base` with `concurrency` workers until `stop()`, at
 * most `maxRequests` requests and `maxMs` milliseconds (whichever comes first).
 */
export function startBoundedLoad(options: {
  base: string;
  paths: readonly string[];
  headers: Record<string, string>;
  concurrency: number;
  maxRequests: number;
  maxMs: number;
}): BoundedLoad {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(options.base)) throw new Error('load only targets loopback');
  const outcomes: LoadOutcome[] = [];
  const deadline = Date.now() + options.maxMs;
  let started = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (!stopped && started < options.maxRequests && Date.now() < deadline) {
      const path = options.paths[started % options.paths.length] ?? '/';
      started += 1;
      const sentAt = Date.now();
      const status = await fetch(`${options.base}${path}`, {
        headers: options.headers,
        signal: AbortSignal.timeout(10_000),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 'network error' as const,
      );
      outcomes.push({ path, status, at: Date.now(), ms: Date.now() - sentAt });
    }
  };
  const workers = Array.from({ length: options.concurrency }, worker);
  return {
    count: () => outcomes.length,
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return outcomes;
    },
  };
}
