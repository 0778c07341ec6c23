export { authErrors } from './errors.js';
export { authenticate } from './authenticate.js';
export { operatorTokens, requireOperator } from './operator.js';
export { identityJwksFetcher, identityTokenVerifier } from './identity-jwks.js';
export { requireUser } from './require-user.js';
