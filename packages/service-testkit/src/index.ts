export { testTokens } from './test-tokens.js';
export type { TestTokens } from './test-tokens.js';
export { testRevocations } from './test-revocations.js';
export type { TestRevocations } from './test-revocations.js';
export { as, remoteError } from './remote-error.js';
export { REQUIRED_SERVICE_ENV } from './service-env.js';
