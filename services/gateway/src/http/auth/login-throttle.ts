import { createHash, randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { MAX_UNITS, type LimitRule, type RateLimitDecision, type RateLimiter } from '@tap/ratelimit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setCookie } from '../browser/cookies.js';
import { REFRESH_COOKIE_PATH, requestCookies } from '../browser/session-cookies.js';
import { clientAddressKey, clientNetworkKey } from './client-address.js';
import { limitExceeded, setLimitHeaders } from './limit-answer.js';
import { consumeLimit } from './limit-decisions.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Per-account login throttling beside the per-address limit of auth-limits.ts (docs/security.md,
 * "Login throttling", has the reasoning behind each number). Failures are what is counted: a
 * source that has signed in to the account before (its address, or the browser's device cookie)
 * fails into a bucket of its own, every other source into one shared, tight bucket per account.
 * So an attacker spread over any number of addresses gets few guesses at one account, and cannot
 * lock the owner out of the places the owner usually signs in from. Each rule falls back to a
 * per-process count when Redis is away: brute-force protection must outlive a limiter outage.
 */
export const LOGIN_THROTTLE = {
  /** Every login attempt from one IPv6 /48 (the /64 has its own limit in AUTH_LIMITS). */
  network: { name: 'login-per-ipv6-48', limit: 60, windowMs: MINUTE_MS, onRedisDown: 'local' },
  /** Failed logins at one account from every source that never signed in to it, together. */
  unknownSources: {
    name: 'login-fail-unknown',
    limit: 10,
    windowMs: 15 * MINUTE_MS,
    subWindows: 15,
    onRedisDown: 'local',
  },
  /** Failed logins at one account from one source that has signed in to it before. */
  knownSource: {
    name: 'login-fail-known',
    limit: 10,
    windowMs: 15 * MINUTE_MS,
    subWindows: 15,
    onRedisDown: 'local',
  },
  /** Remembers a successful sign-in of a source for 30 days after its last one (a counter > 0). */
  remembered: {
    name: 'login-known-source',
    limit: MAX_UNITS,
    windowMs: 30 * DAY_MS,
    subWindows: 30,
    onRedisDown: 'local',
  },
  /** Sign-in and sign-up links mailed to one address, from anywhere (keeps one inbox from a flood). */
  magicLinkPerAccount: {
    name: 'magic-link-per-account',
    limit: 10,
    windowMs: 15 * MINUTE_MS,
    subWindows: 15,
    onRedisDown: 'local',
  },
} as const satisfies Record<string, LimitRule>;

/** The browser's device cookie: random, HttpOnly, sent only to /auth/v2 (like the refresh cookie). */
export const DEVICE_COOKIE = 'svc_device';
const DEVICE_MAX_AGE_S = 365 * 24 * 3600;
const DEVICE_VALUE = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (label: string, value: string) =>
  createHash('sha256').update(`${label}\0${value}`, 'utf8').digest('hex');

/**
 * An address in the form identity compares (docs/identity.md, "E-mail addresses and domains"):
 * NFKC, lower case, the domain through IDNA. Identity also refuses confusable spellings; here
 * every spelling only has to land in the same bucket as the account's own.
 */
function comparableEmail(email: string): string {
  const unified = email.trim().normalize('NFKC').toLowerCase();
  const at = unified.lastIndexOf('@');
  if (at < 0) return unified;
  const domain = domainToASCII(unified.slice(at + 1)) || unified.slice(at + 1);
  return `${unified.slice(0, at)}@${domain.toLowerCase()}`;
}

/**
 * The Redis subject of an account: a hash of the e-mail as identity normalises it, so Redis
 * never holds an address and every spelling of one account shares its buckets.
 * Keyed whether or not the account exists, so a 429 says nothing about existence.
 */
export function accountSubject(email: string): string {
  return `acct:${sha256('login-account', comparableEmail(email))}`;
}

/** Where a login comes from, as far as the account's memory of its sources goes. */
interface Sources {
  readonly address: string;
  readonly device: string | undefined;
}

function sourcesOf(request: FastifyRequest, withDevice: boolean): Sources {
  const device = withDevice ? requestCookies(request).get(DEVICE_COOKIE) : undefined;
  return {
    address: `a:${sha256('login-source', clientAddressKey(request.ip))}`,
    device: device && DEVICE_VALUE.test(device) ? `d:${sha256('login-device', device)}` : undefined,
  };
}

function refuse(reply: FastifyReply, decision: RateLimitDecision, what: string) {
  setLimitHeaders(reply, decision);
  return limitExceeded(decision, what);
}

/** The failure bucket this attempt counts in: a known source's own, or the account's shared one. */
async function bucketOf(limiter: RateLimiter, account: string, sources: Sources) {
  for (const source of [sources.device, sources.address]) {
    if (source === undefined) continue;
    const memory = await limiter.peek(`${account}:known:${source}`, [LOGIN_THROTTLE.remembered]);
    if ((memory.windows[0]?.used ?? 0) > 0)
      return { subject: `${account}:fail:${source}`, rule: LOGIN_THROTTLE.knownSource };
  }
  return { subject: `${account}:fail:unknown`, rule: LOGIN_THROTTLE.unknownSources };
}

export interface ThrottledLoginOptions {
  readonly limiter: RateLimiter;
  readonly email: string;
  /** The cookie surface (/auth/v2): recognise and hand out the device cookie. */
  readonly device?: { readonly cookieDomain?: string | undefined };
}

/**
 * Runs `login` (identity's password check, where argon2 runs) only if the caller's network and
 * the account's failure bucket for this source allow it, and answers `429 rate_limit_exceeded`
 * before it otherwise. Every attempt is charged to the bucket before the check and a success is
 * refunded, so only failures stay counted; a success also remembers the source (and sets the device cookie on the cookie surface). The per-address limit
 * (`enforceAuthLimit(…, 'login', …)`) is the caller's, before this.
 */
export async function throttledLogin<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ThrottledLoginOptions,
  login: () => Promise<T>,
): Promise<T> {
  const { limiter } = options;
  const network = clientNetworkKey(request.ip);
  if (network !== undefined) {
    const decision = await consumeLimit(request, limiter, `net:${network}`, [LOGIN_THROTTLE.network]);
    if (!decision.allowed) throw refuse(reply, decision, 'login attempts from this network');
  }
  const account = accountSubject(options.email);
  const sources = sourcesOf(request, options.device !== undefined);
  const bucket = await bucketOf(limiter, account, sources);
  // Charged before the password check and given back on success: every guess in flight has
  // already paid, so no more than the limit of them reach argon2 however many arrive at once,
  // and the owner's own sign-ins still cost nothing. Any failure keeps its charge (the safe side).
  const charge = await consumeLimit(request, limiter, bucket.subject, [bucket.rule]);
  if (!charge.allowed) throw refuse(reply, charge, 'failed logins for this account');
  const result = await login();
  await limiter.refund(bucket.subject, [bucket.rule], charge);
  await remember(limiter, reply, account, sources, options.device);
  return result;
}

async function remember(
  limiter: RateLimiter,
  reply: FastifyReply,
  account: string,
  sources: Sources,
  device: ThrottledLoginOptions['device'],
): Promise<void> {
  let deviceSource = sources.device;
  if (device && deviceSource === undefined) {
    const value = randomBytes(32).toString('base64url');
    deviceSource = `d:${sha256('login-device', value)}`;
    setCookie(reply, DEVICE_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: REFRESH_COOKIE_PATH,
      maxAge: DEVICE_MAX_AGE_S,
      domain: device.cookieDomain,
    });
  }
  for (const source of [sources.address, deviceSource]) {
    if (source !== undefined)
      await consumeLimit(reply.request, limiter, `${account}:known:${source}`, [LOGIN_THROTTLE.remembered]);
  }
}

/**
 * Charges one sign-in or sign-up link to its target address (after the per-address limit) and
 * says whether the link may be sent. Over the limit the caller still answers the spec's fixed
 * `200` ("always 200 with a fixed message") and simply sends nothing: a 429 here would be an
 * answer that differs by target, and the point of the limit is only to keep one inbox from
 * being flooded. Keyed on a hash of the e-mail whether or not an account has it.
 */
export async function allowMagicLinkForAccount(
  request: FastifyRequest,
  limiter: RateLimiter,
  email: string,
): Promise<boolean> {
  const decision = await consumeLimit(request, limiter, `${accountSubject(email)}:magic`, [
    LOGIN_THROTTLE.magicLinkPerAccount,
  ]);
  return decision.allowed;
}
