import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { ACCESS_TOKEN_TYPE, SIGNING_ALGORITHM, type AccessClaims, type PrincipalKind } from './claims.js';

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;
/** At most one JWKS refetch per this interval on unknown kids, so garbage tokens cannot flood identity. */
export const DEFAULT_JWKS_REFETCH_COOLDOWN_MS = 1_000;

/** Why a token was refused; all of these are a 401 invalid_token to the caller. */
export type TokenRejection = 'MALFORMED' | 'EXPIRED' | 'BAD_SIGNATURE' | 'UNKNOWN_KEY' | 'CLAIMS_INVALID';

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  constructor(
    readonly reason: TokenRejection,
    options?: { cause?: unknown },
  ) {
    super(`invalid token: ${reason.toLowerCase()}`, options);
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<AccessClaims>;
}

const KINDS: readonly PrincipalKind[] = ['user', 'client', 'operator', 'service'];

/**
 * Verifies access tokens against identity's JWKS: ES256 only (so `alg: none` or HS256 tricks
 * fail), issuer, audience, `typ: at+jwt`, expiry with a small clock tolerance. The key set is
 * cached and refetched when a token names a kid it does not know (key rotation).
 */
export function createTokenVerifier(options: {
  fetchJwks: () => Promise<JSONWebKeySet>;
  issuer: string;
  audience: string;
  clockToleranceSeconds?: number;
  refetchCooldownMs?: number;
  now?: () => number;
}): TokenVerifier {
  const now = options.now ?? Date.now;
  let keySet: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetchedAt = -Infinity;
  let pending: Promise<void> | undefined;

  const refresh = async (): Promise<void> => {
    pending ??= options
      .fetchJwks()
      .then((jwks) => {
        keySet = createLocalJWKSet(jwks);
        fetchedAt = now();
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  const verifyWith = async (token: string) => {
    if (!keySet) await refresh();
    return jwtVerify(token, keySet!, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: [SIGNING_ALGORITHM],
      typ: ACCESS_TOKEN_TYPE,
      clockTolerance: options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
  };

  return {
    async verify(token) {
      try {
        try {
          return toClaims((await verifyWith(token)).payload);
        } catch (error) {
          const cooled = now() - fetchedAt >= (options.refetchCooldownMs ?? DEFAULT_JWKS_REFETCH_COOLDOWN_MS);
          if (!(error instanceof errors.JWKSNoMatchingKey) || !cooled) throw error;
          await refresh();
          return toClaims((await verifyWith(token)).payload);
        }
      } catch (error) {
        throw toRejection(error);
      }
    },
  };
}

function toRejection(error: unknown): Error {
  if (error instanceof InvalidTokenError) return error;
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('EXPIRED', { cause: error });
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new InvalidTokenError('BAD_SIGNATURE', { cause: error });
  if (error instanceof errors.JWKSNoMatchingKey)
    return new InvalidTokenError('UNKNOWN_KEY', { cause: error });
  if (error instanceof errors.JWTClaimValidationFailed)
    return new InvalidTokenError('CLAIMS_INVALID', { cause: error });
  if (error instanceof errors.JOSEError) return new InvalidTokenError('MALFORMED', { cause: error });
  // Not a token problem (e.g. identity unreachable while fetching the key set): let it surface.
  return error as Error;
}

function toClaims(payload: JWTPayload): AccessClaims {
  const { sub, tid, role, scope, sid, knd, jti, exp } = payload;
  if (
    typeof sub !== 'string' ||
    typeof tid !== 'string' ||
    typeof sid !== 'string' ||
    typeof jti !== 'string'
  ) {
    throw new InvalidTokenError('CLAIMS_INVALID');
  }
  if (typeof knd !== 'string' || !KINDS.includes(knd as PrincipalKind))
    throw new InvalidTokenError('CLAIMS_INVALID');
  return {
    subject: sub,
    kind: knd as PrincipalKind,
    tenantId: tid,
    role: typeof role === 'string' ? role : '',
    scopes: typeof scope === 'string' && scope.length > 0 ? scope.split(' ') : [],
    sessionId: sid,
    tokenId: jti,
    expiresAt: typeof exp === 'number' ? exp : 0,
  };
}
