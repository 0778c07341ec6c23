/** Stable codes callers branch on (never on message text). */
export type TapClientErrorCode =
  /** `POST /oauth/token` refused the client's credentials or answered something else than a token. */
  | 'TOKEN_REQUEST_FAILED'
  /** A bearer session could not be refreshed (the refresh token is spent, expired or revoked). */
  | 'SESSION_EXPIRED';

/** The one error the client throws itself; HTTP answers are returned, never thrown. */
export class TapClientError extends Error {
  readonly code: TapClientErrorCode;
  /** The HTTP status of the answer that caused it, when there was one. */
  readonly status: number | undefined;

  constructor(code: TapClientErrorCode, message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TapClientError';
    this.code = code;
    this.status = status;
  }
}
