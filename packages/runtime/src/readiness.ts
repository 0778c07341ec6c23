import { createCheckFailureLog, type ReadinessLogger } from './readiness-log.js';

/** A dependency's check: resolves when it is usable, rejects (or times out) when not. */
export type ReadinessCheck = () => Promise<void>;

/**
 * The full report, for this process's own use and its log. `detail` is an error message and may
 * name internal addresses: it never goes into an HTTP answer (see publicReadiness).
 */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly shuttingDown: boolean;
  readonly dependencies: Readonly<Record<string, { ready: boolean; detail?: string }>>;
}

/** What `/readyz` answers: the names of the checks that fail, nothing else about them. */
export interface PublicReadiness {
  readonly status: 'ready' | 'not ready';
  readonly down: readonly string[];
  readonly shuttingDown?: true;
}

const CHECK_TIMEOUT_MS = 1_000;

/**
 * What /readyz answers: ready when every registered dependency passes its check and the
 * process is not shutting down. Checks run on demand with a short timeout, so a dependency
 * that goes away later makes the process not ready again (and it recovers by itself).
 * Failures and recoveries go to the logger given with `setLogger`, rate-limited per check.
 */
export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();
  #shuttingDown = false;
  #log = createCheckFailureLog(undefined);

  register(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
  }

  /** Where failing checks are logged with their error (a probe every few seconds logs little). */
  setLogger(logger: ReadinessLogger, now: () => number = Date.now): void {
    this.#log = createCheckFailureLog(logger, now);
  }

  /** Readiness turns false first on SIGTERM, so load balancers stop sending before we stop serving. */
  markShuttingDown(): void {
    this.#shuttingDown = true;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  async report(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.#checks].map(async ([name, check]): Promise<[string, { ready: boolean; detail?: string }]> => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          this.#log.passed(name);
          return [name, { ready: true }];
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          this.#log.failed(name, detail);
          return [name, { ready: false, detail }];
        }
      }),
    );
    const dependencies = Object.fromEntries(entries);
    const ready = !this.#shuttingDown && entries.every(([, state]) => state.ready);
    return { ready, shuttingDown: this.#shuttingDown, dependencies };
  }
}

/**
 * The public form of a report: `{"status":"not ready","down":["entitlements"]}`. Check names
 * only; error messages, addresses and stacks stay in the log (a public `/readyz` must not give
 * away dependency errors with internal addresses).
 */
export function publicReadiness(report: ReadinessReport): PublicReadiness {
  const down = Object.entries(report.dependencies)
    .filter(([, state]) => !state.ready)
    .map(([name]) => name)
    .sort();
  return {
    status: report.ready ? 'ready' : 'not ready',
    down,
    ...(report.shuttingDown ? { shuttingDown: true as const } : {}),
  };
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
