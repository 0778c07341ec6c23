/** What an auth mode needs from the client: a raw send (429 back-off, no auth) and the clock. */
export interface AuthContext {
  /** The API's base URL, `/api/v1` included (`/api/v1` alone in a browser: same origin). */
  readonly baseUrl: string;
  /** Sends a request without credentials of this strategy, backing off on 429. */
  send(request: Request): Promise<Response>;
  /** Milliseconds since the epoch. */
  now(): number;
}

/** One way of proving who calls: adds credentials, and renews them after a 401. */
export interface AuthStrategy {
  /** Sets this mode's credentials on a request about to be sent; returns what it used. */
  authorize(request: Request, context: AuthContext): Promise<string | undefined>;
  /**
   * After a 401 on a request sent with `used`: renews the credential once (concurrent callers
   * share one renewal: refresh tokens rotate, and a second use of one would end the session).
   * True when the request is worth sending again.
   */
  renew(used: string | undefined, context: AuthContext): Promise<boolean>;
}

/**
 * Runs `task` once for concurrent callers (they share its result; later arguments are ignored
 * while it runs); the next call after it settles starts a new one.
 */
export function singleFlight<A, T>(task: (argument: A) => Promise<T>): (argument: A) => Promise<T> {
  let running: Promise<T> | undefined;
  return (argument) => {
    running ??= task(argument).finally(() => {
      running = undefined;
    });
    return running;
  };
}
