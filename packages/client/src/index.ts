export { createTapClient } from './create-client.js';
export type { TapAuth, TapClient, TapClientOptions } from './create-client.js';
export { createTapFetch } from './tap-fetch.js';
export type { RetryEvent, TapFetchOptions } from './tap-fetch.js';
export { clientCredentials, DEFAULT_RENEW_BEFORE_EXPIRY_MS } from './auth/client-credentials.js';
export type { ClientCredentialsOptions } from './auth/client-credentials.js';
export { userTokens } from './auth/user-tokens.js';
export type { UserTokens, UserTokensOptions } from './auth/user-tokens.js';
export { browserSession, cookieValue, CSRF_COOKIE, CSRF_HEADER } from './auth/browser-session.js';
export type { BrowserSessionOptions } from './auth/browser-session.js';
export type { AuthContext, AuthStrategy } from './auth/strategy.js';
export {
  backOffDelayMs,
  retryAfterMs,
  DEFAULT_INITIAL_DELAY_MS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRIES,
} from './retry/back-off.js';
export type { BackOffOptions } from './retry/back-off.js';
export { isIdempotent } from './retry/retry-safe.js';
export { TapClientError } from './errors.js';
export type { TapClientErrorCode } from './errors.js';
export type { paths, components, operations } from './generated/schema.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks/verify-webhook.js';
export type {
  VerifiedWebhook,
  VerifyWebhookOptions,
  WebhookVerificationFailure,
} from './webhooks/verify-webhook.js';
