import { setTimeout as sleep } from 'node:timers/promises';
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { ACCESS_TOKEN_TYPE, SIGNING_ALGORITHM, type AccessClaims, type PrincipalKind } from './claims.js';

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;
/** At most one JWKS refetch per this interval on unknown kids, so garbage tokens cannot flood identity. */
export const DEFAULT_JWKS_REFETCH_COOLDOWN_MS = 1_000;
/**
 * How often a verifier refetches the key set even when every kid is known: a key identity
 * retired at once (an emergency rotation) stops verifying within this time (plus one fetch).
 */
export const DEFAULT_JWKS_REFRESH_INTERVAL_MS = 60_000;

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

/** A verifier over a key set fetched from identity and refreshed periodically. */
export interface KeySetVerifier extends TokenVerifier {
  /**
   * Whether `kid` is in the key set as last fetched (false before the first fetch): a token whose
   * key left the set, however it was verified before, is no longer to be trusted. A set lookup.
   */
  trustsKey(kid: string): boolean;
  /** Stops the periodic refresh (it never keeps a process alive anyway). */
  close(): void;
}

export interface TokenVerifierOptions {
  fetchJwks: () => Promise<JSONWebKeySet>;
  issuer: string;
  audience: string;
  clockToleranceSeconds?: number;
  refetchCooldownMs?: number;
  /** Periodic refetch of the key set, from the first successful fetch on. */
  jwksRefreshIntervalMs?: number;
  /**
   * A periodic refetch failed (identity unreachable): the last key set is kept, so keys that
   * are still valid keep verifying. For a log line; the call itself is already an RPC metric.
   */
  onRefreshError?: (error: unknown) => void;
  now?: () => number;
}

const KINDS: readonly PrincipalKind[] = ['user', 'client', 'operator', 'service'];

/**
 * Verifies access tokens against identity's JWKS: ES256 only (so `alg: none` or HS256 tricks
 * fail), issuer, audience, `typ: at+jwt`, expiry with a small clock tolerance. The key set is
 * cached, refetched when a token names a kid it does not know (key rotation), and refetched every
 * `jwksRefreshIntervalMs` by an unref'd timer (a key retired at once leaves it). A failed refetch
 * keeps the last key set.
 */
export function createTokenVerifier(options: TokenVerifierOptions): KeySetVerifier {
  const now = options.now ?? Date.now;
  const cooldownMs = options.refetchCooldownMs ?? DEFAULT_JWKS_REFETCH_COOLDOWN_MS;
  const intervalMs = options.jwksRefreshIntervalMs ?? DEFAULT_JWKS_REFRESH_INTERVAL_MS;
  let keySet: ReturnType<typeof createLocalJWKSet> | undefined;
  let kids: ReadonlySet<string> = new Set();
  let fetchedAt = -Infinity;
  let pending: Promise<void> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  const refresh = async (): Promise<void> => {
    pending ??= options
      .fetchJwks()
      .then((jwks) => {
        keySet = createLocalJWKSet(jwks);
        kids = new Set(jwks.keys.flatMap((key) => (typeof key.kid === 'string' ? [key.kid] : [])));
        fetchedAt = now();
        startTimer();
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  // Timer, not "refresh when stale on use": a verifier idle for an hour must not answer its next
  // request from an hour-old set, and no request ever waits for identity to be slow or down.
  const startTimer = (): void => {
    if (timer || closed) return;
    timer = setInterval(() => {
      refresh().catch((error: unknown) => options.onRefreshError?.(error));
    }, intervalMs);
    timer.unref();
  };

  // A token of a key identity published a moment ago (an emergency rotation publishes and signs
  // at once): wait for the cooldown rather than refuse it, one fetch for every waiting request.
  const refetchForUnknownKid = async (): Promise<void> => {
    const seen = fetchedAt;
    const wait = seen + cooldownMs - now();
    if (wait > 0) await sleep(wait);
    if (fetchedAt === seen) await refresh();
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
          if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
          await refetchForUnknownKid();
          return toClaims((await verifyWith(token)).payload);
        }
      } catch (error) {
        throw toRejection(error);
      }
    },
    trustsKey: (kid) => kids.has(kid),
    close() {
      closed = true;
      clearInterval(timer);
      timer = undefined;
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
