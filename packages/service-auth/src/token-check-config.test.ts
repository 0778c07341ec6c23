import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseEnv } from '@tap/config';
import { TOKEN_CHECK_ENV, tokenCheckFromEnv } from './token-check-config.js';

describe('TOKEN_CHECK_ENV and tokenCheckFromEnv', () => {
  it('gives a token-checking service the local identity, token rules and Redis by default', () => {
    expect(tokenCheckFromEnv(parseEnv({}, TOKEN_CHECK_ENV))).toEqual({
      identityAddress: '127.0.0.1:50051',
      tokens: { issuer: 'https://identity.tap.local', audience: 'tap-api', jwksRefreshIntervalMs: 60_000 },
      redis: { url: 'redis://127.0.0.1:6379' },
    });
  });

  it('refuses a malformed Redis URL naming the variable', () => {
    expect(() => parseEnv({ REDIS_URL: 'http://not-redis' }, TOKEN_CHECK_ENV)).toThrow(ConfigError);
    expect(() => parseEnv({ REDIS_URL: 'http://not-redis' }, TOKEN_CHECK_ENV)).toThrow(/REDIS_URL/);
  });
});
