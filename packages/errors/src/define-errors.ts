import { DomainError } from './domain-error.js';
import type { ErrorKind } from './error-kind.js';

export type ErrorCatalogue = Readonly<Record<string, { readonly kind: ErrorKind; readonly message: string }>>;

export interface ErrorFactory<C extends ErrorCatalogue> {
  readonly catalogue: C;
  /** Builds the error for `code`, with the catalogue's message unless one is given. */
  create<K extends keyof C & string>(
    code: K,
    options?: { message?: string; details?: Record<string, unknown>; cause?: unknown },
  ): DomainError<K>;
  /** True when `value` is an error of this catalogue (optionally of one `code`). */
  is(value: unknown, code?: keyof C & string): value is DomainError<keyof C & string>;
}

/**
 * One catalogue per service: every expected failure with its kind and default message.
 * Codes must be UPPER_SNAKE; a test per service checks its catalogue with `assertCatalogue`.
 */
export function defineErrors<const C extends ErrorCatalogue>(catalogue: C): ErrorFactory<C> {
  assertCatalogue(catalogue);
  return {
    catalogue,
    create(code, options = {}) {
      const entry = catalogue[code];
      if (!entry) throw new TypeError(`unknown error code ${code}`);
      return new DomainError(code, entry.kind, options.message ?? entry.message, options);
    },
    is(value, code): value is DomainError<keyof C & string> {
      return (
        value instanceof DomainError && value.code in catalogue && (code === undefined || value.code === code)
      );
    },
  };
}

const CODE_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

function assertCatalogue(catalogue: ErrorCatalogue): void {
  for (const [code, entry] of Object.entries(catalogue)) {
    if (!CODE_PATTERN.test(code)) throw new TypeError(`error code ${code} is not UPPER_SNAKE`);
    if (entry.message.trim() === '') throw new TypeError(`error code ${code} has an empty message`);
  }
}
