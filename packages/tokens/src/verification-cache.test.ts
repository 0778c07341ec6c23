import { describe, expect, it } from '@jest/globals';
import type { AccessClaims } from './claims.js';
import { InvalidTokenError, type KeySetVerifier } from './token-verifier.js';
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

/** A token-shaped string: the cache reads only the kid of its header. */
const jwt = (name: string, kid = 'k1'): string =>
  `${Buffer.from(JSON.stringify({ alg: 'ES256', kid })).toString('base64url')}.${name}.sig`;

function countingVerifier(answers: Record<string, AccessClaims | undefined>, kids = new Set(['k1'])) {
  const calls: string[] = [];
  const verifier: KeySetVerifier = {
    async verify(token) {
      calls.push(token);
      const answer = answers[token];
      if (!answer) throw new InvalidTokenError('MALFORMED');
      return answer;
    },
    trustsKey: (kid) => kids.has(kid),
    close: () => undefined,
  };
  return { verifier, calls };
}

describe('verification cache', () => {
  it('verifies a token once and answers from memory until it expires', async () => {
    let clock = 1_000_000;
    const a = jwt('a');
    const { verifier, calls } = countingVerifier({ [a]: claims(1_100) });
    const cached = createVerificationCache(verifier, { now: () => clock });
    await cached.verify(a);
    await cached.verify(a);
    expect(calls).toEqual([a]);
    clock = 1_100_000;
    await cached.verify(a);
    expect(calls).toEqual([a, a]);
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
    const [a, b, c] = [jwt('a'), jwt('b'), jwt('c')];
    const { verifier, calls } = countingVerifier({ [a]: claims(far), [b]: claims(far), [c]: claims(far) });
    const cached = createVerificationCache(verifier, { maxEntries: 2 });
    await cached.verify(a);
    await cached.verify(b);
    await cached.verify(a);
    await cached.verify(c);
    await cached.verify(a);
    await cached.verify(b);
    expect(calls).toEqual([a, b, c, b]);
  });

  it('forgets a remembered token once its key has left the key set, and verifies it afresh', async () => {
    const far = Math.floor(Date.now() / 1_000) + 3_600;
    const [old, fresh] = [jwt('old', 'k1'), jwt('fresh', 'k2')];
    const kids = new Set(['k1', 'k2']);
    const answers: Record<string, AccessClaims | undefined> = { [old]: claims(far), [fresh]: claims(far) };
    const { verifier, calls } = countingVerifier(answers, kids);
    const cached = createVerificationCache(verifier);
    await cached.verify(old);
    await cached.verify(fresh);
    await cached.verify(old);
    expect(calls).toEqual([old, fresh]);

    // k1 retired at once: the verifier's refreshed set no longer has it, nor accepts its tokens.
    kids.delete('k1');
    answers[old] = undefined;
    await expect(cached.verify(old)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(cached.verify(fresh)).resolves.toEqual(claims(far));
    expect(calls).toEqual([old, fresh, old]);
  });
});
