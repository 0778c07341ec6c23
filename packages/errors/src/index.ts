export { DomainError, isDomainError } from './domain-error.js';
export type { ErrorKind } from './error-kind.js';
export { ERROR_KINDS } from './error-kind.js';
export { defineErrors } from './define-errors.js';
export type { ErrorCatalogue, ErrorFactory } from './define-errors.js';
export { DependencyUnavailableError, isDependencyUnavailable } from './dependency-unavailable.js';
export { DUPLICATE_KEY_CODE, isDuplicateKey } from './duplicate-key.js';
