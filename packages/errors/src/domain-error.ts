import type { ErrorKind } from './error-kind.js';

/**
 * A failure the domain expects and names. Callers branch on `code` (stable, UPPER_SNAKE),
 * never on `message`. `details` is safe to show to the caller; `cause` is for logs only.
 */
export class DomainError<C extends string = string> extends Error {
  override readonly name = 'DomainError';
  readonly code: C;
  readonly kind: ErrorKind;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: C,
    kind: ErrorKind,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.kind = kind;
    this.details = options.details;
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError;
}
