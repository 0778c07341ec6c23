import { describe, expect, it } from '@jest/globals';
import { createBreaker } from './breaker.js';
import { classifyRedisError, RedisNotReadyError, RedisTimeoutError, withTimeout } from './redis-failure.js';

describe('breaker', () => {
  it('opens after consecutive failures, for the cooldown only', () => {
    const breaker = createBreaker(3, 1_000);
    breaker.recordFailure(0);
    breaker.recordFailure(0);
    expect(breaker.isOpen(0)).toBe(false);
    breaker.recordFailure(10);
    expect(breaker.isOpen(500)).toBe(true);
    expect(breaker.isOpen(1_010)).toBe(false);
  });

  it('forgets failures after a success', () => {
    const breaker = createBreaker(2, 1_000);
    breaker.recordFailure(0);
    breaker.recordSuccess();
    breaker.recordFailure(0);
    expect(breaker.isOpen(1)).toBe(false);
  });
});

describe('Redis failures', () => {
  it('are classified as timeout, unavailable or error', () => {
    const reply = Object.assign(
      new Error('WRONGTYPE Operation against a key holding the wrong kind of value'),
      { name: 'ReplyError' },
    );
    expect(classifyRedisError(new RedisTimeoutError('x')).code).toBe('REDIS_TIMEOUT');
    expect(classifyRedisError(new Error('Command timed out')).code).toBe('REDIS_TIMEOUT');
    expect(classifyRedisError(new RedisNotReadyError('reconnecting')).code).toBe('REDIS_UNAVAILABLE');
    expect(
      classifyRedisError(new Error("Stream isn't writeable and enableOfflineQueue options is false")).code,
    ).toBe('REDIS_UNAVAILABLE');
    expect(classifyRedisError(reply).code).toBe('REDIS_ERROR');
  });

  it('time out a reply that does not come, and swallow its late rejection', async () => {
    let rejectLate: (error: Error) => void = () => undefined;
    const never = new Promise<never>((_, reject) => {
      rejectLate = reject;
    });
    await expect(withTimeout(never, 10)).rejects.toBeInstanceOf(RedisTimeoutError);
    rejectLate(new Error('late'));
    await expect(withTimeout(Promise.resolve(7), 10)).resolves.toBe(7);
  });
});
