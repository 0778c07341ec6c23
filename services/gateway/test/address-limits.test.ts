import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createRateLimiter,
  createRateLimitRedis,
  type RateLimiter,
  type RateLimitRedis,
} from '@tap/ratelimit';
import { infraUrls, testNamespace } from '@tap/testkit';
import type { FastifyReply } from 'fastify';
import { addressSubject, enforceAddressLimit, type AddressLimit } from '../src/http/auth/address-limits.js';
import { OAuthRequestError } from '../src/http/errors/oauth-request-error.js';

/**
 * The headers a route would send; enforceAddressLimit only sets headers on the reply (and keeps
 * its decisions with the reply's request, for the metrics hook).
 */
function recordingReply(): { reply: FastifyReply; headers: Map<string, string> } {
  const headers = new Map<string, string>();
  const reply = {
    request: {},
    header(name: string, value: string) {
      headers.set(name.toLowerCase(), value);
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('per-address limits of the anonymous endpoints (real Redis)', () => {
  let redis: RateLimitRedis;
  let limiter: RateLimiter;
  let keyPrefix: string;

  beforeAll(async () => {
    redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 5_000 });
    // Without an offline queue, commands sent before the connection is up fail: wait for it.
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    keyPrefix = testNamespace('address_limits');
    // A generous timeout: on a loaded machine the production 100 ms can pass, and the local
    // fallback would then count in this process instead of Redis (correct, but not what is tested).
    limiter = createRateLimiter({ redis, keyPrefix, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const attempt = async (limit: AddressLimit, ip: string) => {
    const { reply, headers } = recordingReply();
    try {
      await enforceAddressLimit(limiter, limit, ip, reply);
      return { allowed: true, headers };
    } catch (error) {
      if (!(error instanceof OAuthRequestError)) throw error;
      expect(error.status).toBe(429);
      expect(error.error).toBe('rate_limit_exceeded');
      return { allowed: false, headers };
    }
  };

  it('refuses the 121st token request of an address in a minute, with Retry-After; other addresses go on', async () => {
    const results = [];
    for (let i = 0; i < 121; i += 1) results.push(await attempt('token', '203.0.113.7'));
    expect(results.slice(0, 120).every((r) => r.allowed)).toBe(true);
    expect(results[120]!.allowed).toBe(false);
    expect((await attempt('token', '203.0.113.8')).allowed).toBe(true);
  });

  it('counts an IPv6 /64 as one address', async () => {
    for (let i = 0; i < 60; i += 1)
      expect((await attempt('refresh', `2001:db8:1:2::${i.toString(16)}`)).allowed).toBe(true);
    expect((await attempt('refresh', '2001:db8:1:2:ffff::1')).allowed).toBe(false);
  });

  it('caps SSO starts over all addresses: 1,000 a minute, whatever the number of addresses', async () => {
    // 100 addresses × 10 starts: each within its own limit, together the whole total.
    for (let a = 0; a < 100; a += 1)
      for (let i = 0; i < 10; i += 1) expect((await attempt('ssoStart', `198.18.1.${a}`)).allowed).toBe(true);
    const fresh = await attempt('ssoStart', '198.18.2.1');
    expect(fresh.allowed).toBe(false);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);

  it('hashes the address into the subject (nothing raw in a Redis key name)', async () => {
    const subject = addressSubject('10.0.0.1');
    expect(subject).toMatch(/^addr:[A-Za-z0-9_-]{43}$/);
    expect(subject).not.toContain('10.0.0.1');
    const keys = await redis.keys(`${keyPrefix}*`);
    expect(keys.some((key) => key.includes('203.0.113.7') || key.includes('2001:db8'))).toBe(false);
  });
});
