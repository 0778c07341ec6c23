import { createHash } from 'node:crypto';
import type { LimitRule, RateLimiter } from '@tap/ratelimit';
import type { FastifyReply } from 'fastify';
import { clientAddressKey } from './client-address.js';
import { limitExceeded, setLimitHeaders } from './limit-answer.js';
import { consumeLimit } from './limit-decisions.js';

const MINUTE_MS = 60_000;

/**
 * Per-address limits of the anonymous endpoints that write state and had none of their own
 * (login, magic-link request and signup are limited per address in auth-limits.ts). Each write
 * lands in the Redis that also holds revocations, which runs with `noeviction`: an unbounded
 * anonymous write rate is a way to make revocations fail (docs/security.md, "Edge input").
 */
export const ADDRESS_LIMITS = {
  /**
   * Each start stores one SSO state (≤ ~1 KB, 10 minutes). 10 a minute per address, and at most
   * 1,000 a minute over all addresses: at most 10,000 live states, about 10 MB, whatever a
   * botnet sends. When the total is spent SSO waits a minute; revocations keep working.
   */
  ssoStart: {
    perAddress: [{ name: 'sso-start-per-ip', limit: 10, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    total: [{ name: 'sso-start-total', limit: 1_000, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'single sign-on starts',
  },
  redeem: {
    perAddress: [{ name: 'redeem-per-ip', limit: 20, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'sign-in links redeemed from this address',
  },
  refresh: {
    perAddress: [{ name: 'refresh-per-ip', limit: 60, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'refreshes from this address',
  },
  token: {
    perAddress: [{ name: 'token-per-ip', limit: 120, windowMs: MINUTE_MS, onRedisDown: 'local' }],
    what: 'token requests from this address',
  },
} as const satisfies Record<
  string,
  { perAddress: readonly LimitRule[]; total?: readonly LimitRule[]; what: string }
>;

export type AddressLimit = keyof typeof ADDRESS_LIMITS;

/**
 * The limiter subject of a caller's address. Hashed: the address text can come from
 * X-Forwarded-For, and nothing a caller sends goes raw into a Redis key name.
 */
export function addressSubject(ip: string): string {
  return `addr:${createHash('sha256').update(clientAddressKey(ip), 'utf8').digest('base64url')}`;
}

/** The one subject of a limit over all callers. */
const TOTAL_SUBJECT = 'all-addresses';

/**
 * Charges one request from `ip` under the endpoint's per-address limit (and its total, when it
 * has one); over it, throws the spec's `429 rate_limit_exceeded` with Retry-After. The route's
 * error style turns that into its body (OAuth-style or `{ success: false, error }`).
 */
export async function enforceAddressLimit(
  limiter: RateLimiter,
  limit: AddressLimit,
  ip: string,
  reply: FastifyReply,
): Promise<void> {
  const settings: { perAddress: readonly LimitRule[]; total?: readonly LimitRule[]; what: string } =
    ADDRESS_LIMITS[limit];
  let decision = await consumeLimit(reply.request, limiter, addressSubject(ip), settings.perAddress);
  // The total is charged only for a request its address may make: one busy address cannot spend it.
  if (decision.allowed && settings.total)
    decision = await consumeLimit(reply.request, limiter, TOTAL_SUBJECT, settings.total);
  setLimitHeaders(reply, decision);
  if (!decision.allowed) throw limitExceeded(decision, settings.what);
}
