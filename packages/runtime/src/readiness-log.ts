/** The slice of a pino logger readiness uses. */
export interface ReadinessLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/** At most one failure line per check in this window; the failures in between are counted. */
export const READINESS_LOG_INTERVAL_MS = 60_000;

export interface CheckFailureLog {
  failed(check: string, detail: string): void;
  passed(check: string): void;
}

interface CheckState {
  down: boolean;
  /** A failure line was written and no recovery line since. */
  announced: boolean;
  loggedAt: number | undefined;
  suppressed: number;
}

/**
 * Logs the errors of readiness checks without flooding: probes every few seconds against a
 * dependency that is down, or one that flaps, write at most one failure line per check per
 * READINESS_LOG_INTERVAL_MS (with the number of failures left out) and one recovery line after
 * each failure line. The error text goes here, never into an HTTP answer.
 */
export function createCheckFailureLog(
  logger: ReadinessLogger | undefined,
  now: () => number = Date.now,
): CheckFailureLog {
  const states = new Map<string, CheckState>();
  return {
    failed(check, detail) {
      if (!logger) return;
      const state = states.get(check) ?? {
        down: false,
        announced: false,
        loggedAt: undefined,
        suppressed: 0,
      };
      states.set(check, state);
      state.down = true;
      const at = now();
      if (state.loggedAt !== undefined && at - state.loggedAt < READINESS_LOG_INTERVAL_MS) {
        state.suppressed += 1;
        return;
      }
      logger.warn(
        { check, err: detail, failuresNotLogged: state.suppressed },
        `readiness check ${check} failing`,
      );
      state.loggedAt = at;
      state.announced = true;
      state.suppressed = 0;
    },
    passed(check) {
      const state = states.get(check);
      if (!logger || !state?.down) return;
      state.down = false;
      if (!state.announced) return;
      state.announced = false;
      logger.info({ check }, `readiness check ${check} passes again`);
    },
  };
}
