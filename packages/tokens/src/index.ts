export { ACCESS_TOKEN_TTL_SECONDS, ACCESS_TOKEN_TYPE, SIGNING_ALGORITHM } from './claims.js';
export type { AccessClaims, AccessTokenInput, PrincipalKind } from './claims.js';
export { generateSigningKey, importPrivateKey } from './signing-key.js';
export type { SigningKeyMaterial } from './signing-key.js';
export { createKeySealer, KeyUnsealError, sealPrivateJwk, unsealPrivateJwk } from './key-sealing.js';
export type { KeySealer, UnsealedKey } from './key-sealing.js';
export { deriveTokenHashSecret, keyEncryptionKeyId } from './key-encryption-secret.js';
export { createTokenSigner } from './token-signer.js';
export type { TokenSigner } from './token-signer.js';
export {
  createTokenVerifier,
  InvalidTokenError,
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  DEFAULT_JWKS_REFRESH_INTERVAL_MS,
} from './token-verifier.js';
export type {
  KeySetVerifier,
  TokenVerifier,
  TokenVerifierOptions,
  TokenRejection,
} from './token-verifier.js';
export { DEFAULT_REVOCATION_KEY_PREFIX, REVOCATION_TTL_SECONDS, revocationKey } from './revocation.js';
export { createVerificationCache, DEFAULT_VERIFICATION_CACHE_ENTRIES } from './verification-cache.js';
