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

const keyOf = (prefix: string, state: string) =>
  `${prefix}:${createHash('sha256').update(state).digest('base64url')}`;

export function redisSsoStateStore(redis: RateLimitRedis, prefix: string): SsoStateStore {
  const unavailable = (error: unknown) =>
    new DependencyUnavailableError('redis: SSO state unavailable', { cause: error });
  return {
    async put(state, value, ttlMs) {
      try {
        await redis.set(keyOf(prefix, state), JSON.stringify(value), 'PX', ttlMs);
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
