import { createHash } from 'node:crypto';
import { DependencyUnavailableError } from '@tap/grpc-kit';
import type { RateLimitRedis } from '@tap/ratelimit';

/** What the SSO start remembers for its callback (docs/browser-sessions.md, SSO). */
export interface SsoState {
  readonly provider: string;
  readonly codeVerifier: string;
  readonly nonce: string;
  readonly returnTo: string;
}

/** Single-use OIDC state with a time to live; keyed by a hash of the state value. */
export interface SsoStateStore {
  put(state: string, value: SsoState, ttlMs: number): Promise<void>;
  /** The value, removed in the same step (a second take gets nothing). */
  take(state: string): Promise<SsoState | undefined>;
}

/**
 * Largest state value stored. Every field is fixed-size (43-character verifier and nonce, a
 * configured provider key) except `returnTo`, capped at 512: a state stays well under this,
 * and the SSO start's total limit times this bounds what SSO can hold in the revocations' Redis.
 */
export const MAX_SSO_STATE_BYTES = 1_024;

const keyOf = (prefix: string, state: string) =>
  `${prefix}:${createHash('sha256').update(state).digest('base64url')}`;

export function redisSsoStateStore(redis: RateLimitRedis, prefix: string): SsoStateStore {
  const unavailable = (error: unknown) =>
    new DependencyUnavailableError('redis: SSO state unavailable', { cause: error });
  return {
    async put(state, value, ttlMs) {
      const serialised = JSON.stringify(value);
      if (Buffer.byteLength(serialised, 'utf8') > MAX_SSO_STATE_BYTES)
        throw new RangeError(`An SSO state is at most ${MAX_SSO_STATE_BYTES} bytes`);
      try {
        await redis.set(keyOf(prefix, state), serialised, 'PX', ttlMs);
      } catch (error) {
        throw unavailable(error);
      }
    },
    async take(state) {
      let raw: string | null;
      try {
        raw = await redis.getdel(keyOf(prefix, state));
      } catch (error) {
        throw unavailable(error);
      }
      return raw ? (JSON.parse(raw) as SsoState) : undefined;
    },
  };
}
