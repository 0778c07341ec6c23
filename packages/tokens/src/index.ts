export { ACCESS_TOKEN_TTL_SECONDS, ACCESS_TOKEN_TYPE, SIGNING_ALGORITHM } from './claims.js';
export type { AccessClaims, AccessTokenInput, PrincipalKind } from './claims.js';
export { generateSigningKey, importPrivateKey } from './signing-key.js';
export type { SigningKeyMaterial } from './signing-key.js';
export { sealPrivateJwk, unsealPrivateJwk } from './key-sealing.js';
export { createTokenSigner } from './token-signer.js';
export type { TokenSigner } from './token-signer.js';
export { createTokenVerifier, InvalidTokenError, DEFAULT_CLOCK_TOLERANCE_SECONDS } from './token-verifier.js';
export type { TokenVerifier, TokenRejection } from './token-verifier.js';
