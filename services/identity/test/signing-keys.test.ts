import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { createTokenVerifier, InvalidTokenError } from '@tap/tokens';
import { decodeProtectedHeader } from 'jose';
import { KEY_PUBLISH_AHEAD_MS, MIN_KEY_RETENTION_MS } from '../src/keys/key-ring.js';
import { codeOf, openIdentityBed, TOKENS, type IdentityBed } from './support/identity-bed.js';

describe('signing-key rotation', () => {
  let bed: IdentityBed;
  let owner: Awaited<ReturnType<IdentityBed['tenantWithOwner']>>;

  beforeAll(async () => {
    bed = await openIdentityBed('signing_keys');
    owner = await bed.tenantWithOwner('Keys Co');
  });
  afterAll(async () => {
    await bed?.close();
  });

  const login = () => unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password });
  const kidOf = (token: string) => decodeProtectedHeader(token).kid;
  /** The kid another replica signs with once its key ring has polled. */
  const kidAfterPoll = async (replica: ReturnType<IdentityBed['replica']>) => {
    await replica.keyRing.refresh(bed.clock.now());
    const signed = await replica.keyRing
      .signer(bed.clock.now())
      .sign(
        { subject: 's', kind: 'service', tenantId: 't', role: '', scopes: [], sessionId: 'x' },
        bed.clock.now(),
      );
    return kidOf(signed.token);
  };
  const jwksKids = async () => (await unaryCall(bed.client, 'GetJwks', {})).keys.map((k) => k.kid);

  it('publishes the new key at once, signs with it after the publish-ahead delay, and keeps the old one verifying', async () => {
    const before = await login();
    const oldKid = kidOf(before.accessToken);
    const rotated = await unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator);
    expect(rotated.previousKid).toBe(oldKid);
    expect(Date.parse(rotated.activatesAt) - Date.parse(rotated.previousRetiresAt)).toBeLessThanOrEqual(
      -MIN_KEY_RETENTION_MS,
    );
    expect(await jwksKids()).toEqual(expect.arrayContaining([oldKid, rotated.kid]));

    // Still inside the publish-ahead window: the old key signs.
    expect(kidOf((await login()).accessToken)).toBe(oldKid);
    expect(await codeOf(unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator))).toBe(
      'SIGNING_KEY_ROTATION_CONFLICT',
    );

    bed.clock.advance(KEY_PUBLISH_AHEAD_MS);
    const after = await login();
    expect(kidOf(after.accessToken)).toBe(rotated.kid);
    await expect(bed.verifier.verify(before.accessToken)).resolves.toMatchObject({ subject: owner.userId });
    await expect(bed.verifier.verify(after.accessToken)).resolves.toMatchObject({ subject: owner.userId });
    // A session started under the old key carries on under the new one.
    expect(
      kidOf((await unaryCall(bed.client, 'Refresh', { refreshToken: before.refreshToken })).accessToken),
    ).toBe(rotated.kid);
  });

  it('tells another replica, which switches at its next poll', async () => {
    const replica = bed.replica();
    await replica.prepare();
    const rotated = await unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator);
    bed.clock.advance(KEY_PUBLISH_AHEAD_MS);
    expect(await kidAfterPoll(replica)).toBe(rotated.kid);
  });

  it('on an emergency rotation signs with the new key at once and drops every earlier key from the key set', async () => {
    const before = await login();
    const oldKid = kidOf(before.accessToken);
    expect((await jwksKids()).length).toBeGreaterThan(1); // earlier rotations' keys still verify
    const replica = bed.replica();
    await replica.prepare();
    // A verifier as the gateway runs one, with a short refresh interval.
    const verifier = createTokenVerifier({
      issuer: TOKENS.issuer,
      audience: TOKENS.audience,
      jwksRefreshIntervalMs: 100,
      now: () => bed.clock.now().getTime(),
      fetchJwks: async () => ({
        keys: (await unaryCall(bed.client, 'GetJwks', {})).keys.map((k) => ({ ...k })),
      }),
    });
    try {
      await expect(verifier.verify(before.accessToken)).resolves.toMatchObject({ subject: owner.userId });

      const rotated = await unaryCall(
        bed.client,
        'RotateSigningKey',
        { retirePreviousNow: true },
        bed.operator,
      );
      expect(rotated.previousKid).toBe(oldKid);
      expect(rotated.previousRetiresAt).toBe(rotated.activatesAt);
      expect(await jwksKids()).toEqual([rotated.kid]);

      // No publish-ahead: the next token is the new key's, and verifies at once.
      const after = await login();
      expect(kidOf(after.accessToken)).toBe(rotated.kid);
      await expect(verifier.verify(after.accessToken)).resolves.toMatchObject({ subject: owner.userId });
      // The verifier drops the old key at its next refresh, and the old token with it.
      const refusal = async () => {
        for (const until = Date.now() + 2_000; Date.now() < until;) {
          if (!verifier.trustsKey(oldKid!)) return verifier.verify(before.accessToken);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error('the old key is still trusted');
      };
      const refused = await refusal().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InvalidTokenError);
      expect(refused).toMatchObject({ reason: 'UNKNOWN_KEY' });

      // The session carries on under the new key; another replica switches at its next poll.
      expect(
        kidOf((await unaryCall(bed.client, 'Refresh', { refreshToken: before.refreshToken })).accessToken),
      ).toBe(rotated.kid);
      expect(await kidAfterPoll(replica)).toBe(rotated.kid);
    } finally {
      verifier.close();
    }
  });

  it('refuses an emergency rotation while a normal one is still being published, and needs the operator', async () => {
    await unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator);
    expect(
      await codeOf(unaryCall(bed.client, 'RotateSigningKey', { retirePreviousNow: true }, bed.operator)),
    ).toBe('SIGNING_KEY_ROTATION_CONFLICT');
    bed.clock.advance(KEY_PUBLISH_AHEAD_MS);
    const { accessToken } = await login();
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'RotateSigningKey',
          { retirePreviousNow: true },
          { authorization: `Bearer ${accessToken}` },
        ),
      ),
    ).toBe('OPERATOR_ONLY');
  });

  it('drops a retired key from the key set once its tokens have expired', async () => {
    const kids = await jwksKids();
    bed.clock.advance(MIN_KEY_RETENTION_MS + 3_600_000);
    const later = await jwksKids();
    expect(later.length).toBe(1);
    expect(kids).toContain(later[0]);
  });
});
