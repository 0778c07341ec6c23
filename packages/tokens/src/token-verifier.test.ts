import { describe, expect, it } from '@jest/globals';
import { SignJWT, UnsecuredJWT, type JSONWebKeySet } from 'jose';
import {
  createTokenSigner,
  createTokenVerifier,
  generateSigningKey,
  importPrivateKey,
  InvalidTokenError,
  sealPrivateJwk,
  unsealPrivateJwk,
  type SigningKeyMaterial,
} from './index.js';

const issuer = 'https://identity.test';
const audience = 'tap-api';
const input = {
  subject: 'u1',
  kind: 'user',
  tenantId: 't1',
  role: 'OWNER',
  scopes: ['products:read'],
  sessionId: 's1',
} as const;

async function signerFor(key: SigningKeyMaterial, ttlSeconds?: number) {
  return createTokenSigner({
    kid: key.kid,
    privateKey: await importPrivateKey(key.privateJwk),
    issuer,
    audience,
    ...(ttlSeconds ? { ttlSeconds } : {}),
  });
}

function verifierOver(keys: () => SigningKeyMaterial[], counter = { fetches: 0 }) {
  return createTokenVerifier({
    issuer,
    audience,
    refetchCooldownMs: 0,
    fetchJwks: async (): Promise<JSONWebKeySet> => {
      counter.fetches += 1;
      return { keys: keys().map((k) => k.publicJwk) };
    },
  });
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InvalidTokenError) return error.reason;
    throw error;
  }
  throw new Error('token was accepted');
}

describe('access tokens', () => {
  it('round-trips every claim through sign and verify', async () => {
    const key = await generateSigningKey();
    const { token, expiresIn } = await (await signerFor(key)).sign(input);
    const claims = await verifierOver(() => [key]).verify(token);
    expect(expiresIn).toBe(900);
    expect(claims).toMatchObject({
      subject: 'u1',
      kind: 'user',
      tenantId: 't1',
      role: 'OWNER',
      scopes: ['products:read'],
      sessionId: 's1',
    });
  });

  it('refuses an expired token', async () => {
    const key = await generateSigningKey();
    const { token } = await (await signerFor(key)).sign(input, new Date(Date.now() - 3_600_000));
    await expect(rejection(verifierOver(() => [key]).verify(token))).resolves.toBe('EXPIRED');
  });

  it('refuses alg none', async () => {
    const key = await generateSigningKey();
    const token = new UnsecuredJWT({ tid: 't1', sid: 's', knd: 'user' })
      .setSubject('u1')
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .encode();
    await expect(rejection(verifierOver(() => [key]).verify(token))).resolves.toBe('MALFORMED');
  });

  it('refuses a token signed by another key under a known kid', async () => {
    const key = await generateSigningKey();
    const forger = await generateSigningKey();
    const forged = await new SignJWT({ tid: 't1', sid: 's', knd: 'user', role: 'OWNER', scope: '' })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
      .setSubject('u1')
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti('j')
      .sign(await importPrivateKey(forger.privateJwk));
    await expect(rejection(verifierOver(() => [key]).verify(forged))).resolves.toBe('BAD_SIGNATURE');
  });

  it('refuses an HS256 token made with the public key as secret', async () => {
    const key = await generateSigningKey();
    const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
    const token = await new SignJWT({ tid: 't1', sid: 's', knd: 'user' })
      .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'at+jwt' })
      .setSubject('u1')
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti('j')
      .sign(secret);
    await expect(rejection(verifierOver(() => [key]).verify(token))).resolves.toMatch(
      /MALFORMED|UNKNOWN_KEY/,
    );
  });

  it('refuses garbage, a wrong audience and a wrong issuer', async () => {
    const key = await generateSigningKey();
    const verifier = verifierOver(() => [key]);
    await expect(rejection(verifier.verify('not.a.jwt'))).resolves.toBe('MALFORMED');
    const other = createTokenSigner({
      kid: key.kid,
      privateKey: await importPrivateKey(key.privateJwk),
      issuer,
      audience: 'elsewhere',
    });
    await expect(rejection(verifier.verify((await other.sign(input)).token))).resolves.toBe('CLAIMS_INVALID');
    const otherIssuer = createTokenSigner({
      kid: key.kid,
      privateKey: await importPrivateKey(key.privateJwk),
      issuer: 'https://evil',
      audience,
    });
    await expect(rejection(verifier.verify((await otherIssuer.sign(input)).token))).resolves.toBe(
      'CLAIMS_INVALID',
    );
  });

  it('learns a rotated key by refetching the key set on an unknown kid', async () => {
    const first = await generateSigningKey();
    const second = await generateSigningKey();
    const published = [first];
    const counter = { fetches: 0 };
    const verifier = verifierOver(() => published, counter);
    await verifier.verify((await (await signerFor(first)).sign(input)).token);
    published.push(second);
    const claims = await verifier.verify((await (await signerFor(second)).sign(input)).token);
    expect(claims.subject).toBe('u1');
    expect(counter.fetches).toBe(2);
    await expect(
      rejection(verifier.verify((await (await signerFor(await generateSigningKey())).sign(input)).token)),
    ).resolves.toBe('UNKNOWN_KEY');
  });
});

/** Polls `probe` every 10 ms until it holds, for at most `ms`. */
async function eventually(probe: () => Promise<boolean> | boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('key set refresh', () => {
  const publishedVerifier = (
    published: SigningKeyMaterial[],
    options: { jwksRefreshIntervalMs: number; refetchCooldownMs?: number; fail?: { now: boolean } },
  ) => {
    const errors: unknown[] = [];
    const counter = { fetches: 0 };
    const verifier = createTokenVerifier({
      issuer,
      audience,
      jwksRefreshIntervalMs: options.jwksRefreshIntervalMs,
      refetchCooldownMs: options.refetchCooldownMs ?? 0,
      onRefreshError: (error) => errors.push(error),
      fetchJwks: async (): Promise<JSONWebKeySet> => {
        counter.fetches += 1;
        if (options.fail?.now) throw new Error('identity unavailable');
        return { keys: published.map((k) => k.publicJwk) };
      },
    });
    return { verifier, errors, counter };
  };

  it('stops trusting a key that left the key set within the refresh interval', async () => {
    const old = await generateSigningKey();
    const fresh = await generateSigningKey();
    const published = [old, fresh];
    const { verifier } = publishedVerifier(published, { jwksRefreshIntervalMs: 50 });
    try {
      const token = (await (await signerFor(old)).sign(input)).token;
      await verifier.verify(token);
      expect(verifier.trustsKey(old.kid)).toBe(true);

      published.splice(0, 1);
      const retiredAt = Date.now();
      await eventually(() => !verifier.trustsKey(old.kid));
      expect(Date.now() - retiredAt).toBeLessThan(1_000);
      await expect(rejection(verifier.verify(token))).resolves.toBe('UNKNOWN_KEY');
      expect(verifier.trustsKey(fresh.kid)).toBe(true);
      await expect(
        verifier.verify((await (await signerFor(fresh)).sign(input)).token),
      ).resolves.toMatchObject({ subject: 'u1' });
    } finally {
      verifier.close();
    }
  });

  it('keeps the last key set while the refresh fails, and says so', async () => {
    const key = await generateSigningKey();
    const fail = { now: false };
    const { verifier, errors, counter } = publishedVerifier([key], { jwksRefreshIntervalMs: 20, fail });
    try {
      const token = (await (await signerFor(key)).sign(input)).token;
      await verifier.verify(token);
      fail.now = true;
      const before = counter.fetches;
      await eventually(() => counter.fetches >= before + 3);
      expect(errors.length).toBeGreaterThanOrEqual(3);
      expect(verifier.trustsKey(key.kid)).toBe(true);
      await expect(verifier.verify(token)).resolves.toMatchObject({ subject: 'u1' });
      await expect(
        verifier.verify((await (await signerFor(key)).sign({ ...input, subject: 'u2' })).token),
      ).resolves.toMatchObject({ subject: 'u2' });
    } finally {
      verifier.close();
    }
  });

  it('accepts a token of a key published just after a fetch, waiting out the refetch cooldown', async () => {
    const first = await generateSigningKey();
    const second = await generateSigningKey();
    const published = [first];
    const { verifier, counter } = publishedVerifier(published, {
      jwksRefreshIntervalMs: 60_000,
      refetchCooldownMs: 300,
    });
    try {
      await verifier.verify((await (await signerFor(first)).sign(input)).token);
      published.push(second);
      const token = (await (await signerFor(second)).sign(input)).token;
      // Three requests at once inside the cooldown: one refetch serves them all.
      const claims = await Promise.all([
        verifier.verify(token),
        verifier.verify(token),
        verifier.verify(token),
      ]);
      expect(claims.map((c) => c.subject)).toEqual(['u1', 'u1', 'u1']);
      expect(counter.fetches).toBe(2);
    } finally {
      verifier.close();
    }
  });

  it('does not fetch on a timer before it is first used, nor after it is closed', async () => {
    const key = await generateSigningKey();
    const { verifier, counter } = publishedVerifier([key], { jwksRefreshIntervalMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counter.fetches).toBe(0);
    await verifier.verify((await (await signerFor(key)).sign(input)).token);
    verifier.close();
    const fetches = counter.fetches;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counter.fetches).toBe(fetches);
  });
});

describe('sealed private keys', () => {
  it('unseal with the right secret and fail with another', async () => {
    const key = await generateSigningKey();
    const sealed = await sealPrivateJwk(key.privateJwk, 'k'.repeat(32));
    expect(sealed).not.toContain(String(key.privateJwk.d));
    await expect(unsealPrivateJwk(sealed, 'k'.repeat(32))).resolves.toEqual(key.privateJwk);
    await expect(unsealPrivateJwk(sealed, 'x'.repeat(32))).rejects.toThrow();
  });
});
