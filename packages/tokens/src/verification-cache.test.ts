import { describe, expect, it } from '@jest/globals';
import type { AccessClaims } from './claims.js';
import { InvalidTokenError, type TokenVerifier } from './token-verifier.js';
import { createVerificationCache } from './verification-cache.js';

const claims = (expiresAt: number): AccessClaims => ({
  subject: 'u',
  kind: 'user',
  tenantId: 't',
  role: 'OWNER',
  scopes: [],
  sessionId: 's',
  tokenId: 'j',
  expiresAt,
});

function countingVerifier(answers: Record<string, AccessClaims | undefined>) {
  const calls: string[] = [];
  const verifier: TokenVerifier = {
    async verify(token) {
      calls.push(token);
      const answer = answers[token];
      if (!answer) throw new InvalidTokenError('MALFORMED');
      return answer;
    },
  };
  return { verifier, calls };
}

describe('verification cache', () => {
  it('verifies a token once and answers from memory until it expires', async () => {
    let clock = 1_000_000;
    const { verifier, calls } = countingVerifier({ a: claims(1_100) });
    const cached = createVerificationCache(verifier, { now: () => clock });
    await cached.verify('a');
    await cached.verify('a');
    expect(calls).toEqual(['a']);
    clock = 1_100_000;
    await cached.verify('a');
    expect(calls).toEqual(['a', 'a']);
  });

  it('never remembers a refusal', async () => {
    const { verifier, calls } = countingVerifier({});
    const cached = createVerificationCache(verifier);
    await expect(cached.verify('bad')).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(cached.verify('bad')).rejects.toBeInstanceOf(InvalidTokenError);
    expect(calls).toEqual(['bad', 'bad']);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const far = Math.floor(Date.now() / 1_000) + 3_600;
    const { verifier, calls } = countingVerifier({ a: claims(far), b: claims(far), c: claims(far) });
    const cached = createVerificationCache(verifier, { maxEntries: 2 });
    await cached.verify('a');
    await cached.verify('b');
    await cached.verify('a');
    await cached.verify('c');
    await cached.verify('a');
    await cached.verify('b');
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
  });
});
