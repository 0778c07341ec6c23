import { describe, expect, it } from '@jest/globals';
import {
  ConfigError,
  durationMs,
  listenPort,
  mongoUrl,
  natsUrl,
  parseEnv,
  redisUrl,
  secret,
} from './index.js';

const specs = {
  MONGO_URL: mongoUrl(),
  NATS_URL: natsUrl({ default: 'nats://127.0.0.1:4222' }),
  REDIS_URL: redisUrl({ default: 'redis://127.0.0.1:6379' }),
  GRPC_PORT: listenPort({ default: 50051 }),
  DEADLINE_MS: durationMs({ default: 2_000 }),
  HMAC_SECRET: secret(32)({ default: 'x'.repeat(32) }),
};

function issuesOf(env: Record<string, string>): Array<{ variable: string; problem: string }> {
  try {
    parseEnv(env, specs);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('parseEnv', () => {
  it('returns typed values with defaults filled in', () => {
    const config = parseEnv({ MONGO_URL: 'mongodb://db:27017/x' }, specs);
    expect(config.MONGO_URL).toBe('mongodb://db:27017/x');
    expect(config.GRPC_PORT).toBe(50051);
    expect(config.DEADLINE_MS).toBe(2_000);
  });

  it('lists every bad variable at once, each with why', () => {
    const issues = issuesOf({
      MONGO_URL: 'mongodb://',
      NATS_URL: 'http://x',
      GRPC_PORT: '70000',
      DEADLINE_MS: '-5',
    });
    expect(issues.map((i) => i.variable).sort()).toEqual([
      'DEADLINE_MS',
      'GRPC_PORT',
      'MONGO_URL',
      'NATS_URL',
    ]);
    expect(issues.find((i) => i.variable === 'GRPC_PORT')?.problem).toMatch(/port number/);
  });

  it('says a required variable is required', () => {
    expect(issuesOf({})).toEqual([{ variable: 'MONGO_URL', problem: 'is required' }]);
  });

  it('rejects a malformed MongoDB URL without echoing it', () => {
    const issues = issuesOf({ MONGO_URL: 'mongodb://user:hunter2@' });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.problem).not.toContain('hunter2');
  });

  it('never puts a secret value in a message', () => {
    const issues = issuesOf({ MONGO_URL: 'mongodb://db/x', HMAC_SECRET: 'short-secret' });
    expect(issues).toEqual([{ variable: 'HMAC_SECRET', problem: 'must be at least 32 characters long' }]);
  });

  it('accepts a redis URL and rejects another scheme', () => {
    expect(issuesOf({ MONGO_URL: 'mongodb://db/x', REDIS_URL: 'rediss://r:6380' })).toEqual([]);
    expect(issuesOf({ MONGO_URL: 'mongodb://db/x', REDIS_URL: 'memcached://r' })[0]?.variable).toBe(
      'REDIS_URL',
    );
  });
});
