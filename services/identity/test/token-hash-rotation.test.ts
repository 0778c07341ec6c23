import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { IdentityServiceClient } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import type { IdentityApp } from '../src/app.js';
import { createKeyedHasher, randomSecret } from '../src/crypto/keyed-hash.js';
import { magicLinksRepository } from '../src/store/magic-links-repository.js';
import { codeOf, openIdentityBed, type IdentityBed, type ReplicaOptions } from './support/identity-bed.js';

// The bed's own app hashes under A, the TOKEN_HASH_SECRET in use before the rotation.
const SECRET_A = 'token-hash-secret-a-0123456789abcdefghij';
const SECRET_B = 'token-hash-secret-b-0123456789abcdefghij';
const ROTATING = { tokenHashSecret: SECRET_B, tokenHashSecretPrevious: SECRET_A };
const B_ONLY = { tokenHashSecret: SECRET_B };
/** The first roll of the procedure: the new value known to every replica before any hashes with it. */
const STAGED = { tokenHashSecret: SECRET_A, tokenHashSecretPrevious: SECRET_B };

interface Served {
  readonly client: IdentityServiceClient;
  close(): Promise<void>;
}

describe('rotating TOKEN_HASH_SECRET', () => {
  let bed: IdentityBed;
  let owner: Awaited<ReturnType<IdentityBed['tenantWithOwner']>>;
  const opened: Served[] = [];

  beforeAll(async () => {
    bed = await openIdentityBed('token_hash_rotation', { tokenHashSecret: SECRET_A });
    owner = await bed.tenantWithOwner('Hashed Co');
  });
  afterAll(async () => {
    for (const served of opened) await served.close();
    await bed?.close();
  });

  async function start(options: ReplicaOptions): Promise<IdentityServiceClient> {
    const app: IdentityApp = bed.replica(options);
    await app.prepare();
    const served = await bed.serve(app);
    opened.push(served);
    return served.client;
  }

  /** Credentials issued by the bed's own app, under A: a refresh token, a client secret, a magic link. */
  async function issuedUnderA() {
    const session = await unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password });
    const created = await unaryCall(
      bed.client,
      'CreateOAuthClient',
      { name: 'ERP sync', scopes: ['products:read'], tenantId: '' },
      { authorization: `Bearer ${session.accessToken}` },
    );
    // What identity's issueLink stores (the bed has no mail): the link's hash under A.
    const magicLink = `ml_${randomSecret()}`;
    const now = bed.clock.now();
    await magicLinksRepository(bed.db).insert(
      createKeyedHasher(SECRET_A).digest('magic-link', magicLink),
      { kind: 'sign-in', userId: owner.userId, tenantId: owner.tenantId },
      now,
      new Date(now.getTime() + 15 * 60_000),
    );
    return {
      refreshToken: session.refreshToken,
      oauthClient: { clientId: created.client!.clientId, clientSecret: created.clientSecret },
      magicLink,
    };
  }

  async function storedSecretHash(clientId: string): Promise<string | undefined> {
    const doc = await bed.db
      .collection<{ _id: string; secretHash: string }>('oauth_clients')
      .findOne({ _id: clientId });
    return doc?.secretHash;
  }

  it('refuses credentials issued under the old secret with the same errors as before when the new one is set alone', async () => {
    const old = await issuedUnderA();
    const client = await start(B_ONLY);
    expect(await codeOf(unaryCall(client, 'Refresh', { refreshToken: old.refreshToken }))).toBe(
      'REFRESH_TOKEN_INVALID',
    );
    expect(await codeOf(unaryCall(client, 'IssueClientToken', { ...old.oauthClient, scope: '' }))).toBe(
      'CLIENT_AUTH_FAILED',
    );
    expect(await codeOf(unaryCall(client, 'RedeemMagicLink', { token: old.magicLink }))).toBe(
      'INVALID_OR_EXPIRED',
    );
  });

  it('keeps a refresh token, a client secret and a magic link issued under the old secret working with the new one current', async () => {
    const old = await issuedUnderA();
    const rotating = await start(ROTATING);

    const refreshed = await unaryCall(rotating, 'Refresh', { refreshToken: old.refreshToken });
    await expect(bed.verifier.verify(refreshed.accessToken)).resolves.toMatchObject({
      subject: owner.userId,
    });
    // The immediate parent, re-presented in the grace window, still yields the same child.
    const again = await unaryCall(rotating, 'Refresh', { refreshToken: old.refreshToken });
    expect(again.refreshToken).toBe(refreshed.refreshToken);

    const granted = await unaryCall(rotating, 'IssueClientToken', { ...old.oauthClient, scope: '' });
    await expect(bed.verifier.verify(granted.accessToken)).resolves.toMatchObject({
      subject: old.oauthClient.clientId,
    });
    expect(await storedSecretHash(old.oauthClient.clientId)).toBe(
      createKeyedHasher(SECRET_B).digest('client-secret', old.oauthClient.clientSecret),
    );

    const redeemed = await unaryCall(rotating, 'RedeemMagicLink', { token: old.magicLink });
    expect(redeemed.session?.user?.id).toBe(owner.userId);

    // Once the previous secret is dropped: the refreshed token and the re-hashed client still work.
    const alone = await start(B_ONLY);
    const next = await unaryCall(alone, 'Refresh', { refreshToken: refreshed.refreshToken });
    await expect(bed.verifier.verify(next.accessToken)).resolves.toMatchObject({ subject: owner.userId });
    await expect(
      unaryCall(alone, 'IssueClientToken', { ...old.oauthClient, scope: '' }),
    ).resolves.toMatchObject({ expiresIn: 900 });
  });

  it('hands back the child a replica still on the old secret made, when its parent is re-presented after the roll', async () => {
    const old = await issuedUnderA();
    // An old replica (A only) rotates the token; its answer is lost and the client retries on a new one.
    const fromOld = await unaryCall(bed.client, 'Refresh', { refreshToken: old.refreshToken });
    const rotating = await start(ROTATING);
    const retried = await unaryCall(rotating, 'Refresh', { refreshToken: old.refreshToken });
    expect(retried.refreshToken).toBe(fromOld.refreshToken);
    const next = await unaryCall(rotating, 'Refresh', { refreshToken: retried.refreshToken });
    await expect(
      unaryCall(await start(B_ONLY), 'Refresh', { refreshToken: next.refreshToken }),
    ).resolves.toMatchObject({ expiresIn: 900 });
  });

  it('serves a family and a client alternately from both sides of the second roll without revoking either', async () => {
    const old = await issuedUnderA();
    const staged = await start(STAGED);
    const rotating = await start(ROTATING);
    let refreshToken = old.refreshToken;
    for (const client of [rotating, staged, rotating, staged, rotating]) {
      refreshToken = (await unaryCall(client, 'Refresh', { refreshToken })).refreshToken;
      await expect(
        unaryCall(client, 'IssueClientToken', { ...old.oauthClient, scope: '' }),
      ).resolves.toMatchObject({ expiresIn: 900 });
    }
    const sessionId = refreshToken.split('.')[0]!;
    expect(await bed.isRevoked(sessionId)).toBe(false);
  });

  it('logs at start how many clients are not re-hashed under the current secret yet, and no secret', async () => {
    const logger = createLogger({ service: 'identity-test', level: 'silent' });
    const logged = jest.spyOn(logger, 'info');
    const before = await issuedUnderA();
    await bed.replica({ ...ROTATING, logger }).prepare();
    const counted = () =>
      logged.mock.calls
        .filter((call) => String(call[1]).startsWith('OAuth client secrets not yet re-hashed'))
        .map((call) => (call[0] as { clients: number }).clients);
    const [first] = counted();
    expect(first).toBeGreaterThan(0);

    const rotating = await start(ROTATING);
    await unaryCall(rotating, 'IssueClientToken', { ...before.oauthClient, scope: '' });
    await bed.replica({ ...ROTATING, logger }).prepare();
    expect(counted()).toEqual([first, first! - 1]);

    const line = JSON.stringify(logged.mock.calls);
    for (const secret of [SECRET_A, SECRET_B, before.oauthClient.clientSecret])
      expect(line).not.toContain(secret);
    // Without a previous secret there is nothing to count, and nothing is logged.
    await bed.replica({ ...B_ONLY, logger }).prepare();
    expect(counted()).toHaveLength(2);
  });
});
