import { describe, expect, it } from '@jest/globals';
import { resolveRule } from '@tap/ratelimit';
import { accountSubject, LOGIN_THROTTLE } from './login-throttle.js';

describe('login throttle', () => {
  it('keys an account by a hash of the e-mail as identity normalises it, never the address itself', () => {
    const subject = accountSubject('Owner@Example.COM');
    expect(subject).toMatch(/^acct:[0-9a-f]{64}$/);
    expect(accountSubject('  owner@example.com ')).toBe(subject);
    // NFKC and IDNA, as identity compares: the Kelvin sign is K, a Unicode domain its A-label.
    expect(accountSubject('owner@\u212Aelvin.example')).toBe(accountSubject('owner@kelvin.example'));
    expect(accountSubject('a@B\u00FCcher.example')).toBe(accountSubject('a@xn--bcher-kva.example'));
    expect(subject).not.toContain('example');
    expect(accountSubject('other@example.com')).not.toBe(subject);
  });

  it('has valid rules that survive a Redis outage with a local count', () => {
    for (const rule of Object.values(LOGIN_THROTTLE)) {
      expect(() => resolveRule(rule)).not.toThrow();
      expect(rule.onRedisDown).toBe('local');
    }
  });
});
