/** A dependency's check: resolves when it is usable, rejects (or times out) when not. */
export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  readonly ready: boolean;
  readonly shuttingDown: boolean;
  readonly dependencies: Readonly<Record<string, { ready: boolean; detail?: string }>>;
}

const CHECK_TIMEOUT_MS = 1_000;

/**
 * What /readyz answers: ready when every registered dependency passes its check and the
 * process is not shutting down. Checks run on demand with a short timeout, so a dependency
 * that goes away later makes the process not ready again (and it recovers by itself).
 */
export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();
  #shuttingDown = false;

  register(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
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
          return [name, { ready: true }];
        } catch (error) {
          return [name, { ready: false, detail: (error as Error).message }];
        }
      }),
    );
    const dependencies = Object.fromEntries(entries);
    const ready = !this.#shuttingDown && entries.every(([, state]) => state.ready);
    return { ready, shuttingDown: this.#shuttingDown, dependencies };
  }
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
