import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { IdentityServiceClient } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import {
  createTokenVerifier,
  deriveTokenHashSecret,
  keyEncryptionKeyId,
  unsealPrivateJwk,
} from '@tap/tokens';
import { CompactEncrypt, decodeProtectedHeader } from 'jose';
import type { IdentityApp } from '../src/app.js';
import { KEY_PUBLISH_AHEAD_MS } from '../src/keys/key-ring.js';
import { openIdentityBed, TOKENS, type IdentityBed } from './support/identity-bed.js';

// The bed's own app runs with A, the secret in use before the rotation, and derives its
// TOKEN_HASH_SECRET from it; the operator pins that value before rotating (docs/operations.md).
const SECRET_A = TOKENS.keyEncryptionSecret;
const SECRET_B = 'rotated-key-encryption-secret-b-0123456789';
const SECRET_C = 'unrelated-key-encryption-secret-c-01234567';
const PINNED_TOKEN_HASH_SECRET = deriveTokenHashSecret(SECRET_A);
const DURING_ROTATION = {
  tokens: { keyEncryptionSecret: SECRET_B, keyEncryptionSecretPrevious: SECRET_A },
  tokenHashSecret: PINNED_TOKEN_HASH_SECRET,
};
const AFTER_ROTATION = {
  tokens: { keyEncryptionSecret: SECRET_B },
  tokenHashSecret: PINNED_TOKEN_HASH_SECRET,
};

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

/** The kid of the key `app` signs with at `now`. */
async function signingKid(app: IdentityApp, now: Date): Promise<string | undefined> {
  const claims = {
    subject: 's',
    kind: 'service',
    tenantId: 't',
    role: '',
    scopes: [],
    sessionId: 'x',
  } as const;
  return kidOf((await app.keyRing.signer(now).sign(claims, now)).token);
}

async function storedSeals(bed: IdentityBed): Promise<Map<string, string>> {
  const docs = await bed.db
    .collection<{ _id: string; sealedPrivateJwk: string }>('signing_keys')
    .find()
    .toArray();
  return new Map(docs.map((doc) => [doc._id, doc.sealedPrivateJwk]));
}

/** Which secret sealed each stored key, by the identifier in its header. */
async function sealMarks(bed: IdentityBed): Promise<Array<string | undefined>> {
  return [...(await storedSeals(bed)).values()].map((sealed) => decodeProtectedHeader(sealed).kid);
}

async function jwksKids(client: IdentityServiceClient): Promise<string[]> {
  return (await unaryCall(client, 'GetJwks', {})).keys.map((key) => key.kid).sort();
}

async function failureOf(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  return promise.then(
    () => ({ message: 'resolved' }),
    (error: unknown) => error as { code?: string; message: string },
  );
}

describe('rotating KEY_ENCRYPTION_SECRET', () => {
  let bed: IdentityBed;
  let owner: Awaited<ReturnType<IdentityBed['tenantWithOwner']>>;
  let before: { accessToken: string; refreshToken: string };
  let oauthClient: { clientId: string; clientSecret: string };
  let kidsBefore: string[];
  let signingKidBefore: string | undefined;

  beforeAll(async () => {
    bed = await openIdentityBed('key_encryption_rotation');
    owner = await bed.tenantWithOwner('Sealed Co');
    // Three keys after two signing-key rotations: one signs, the pointer still names the one
    // before, and the oldest is named by nothing but still verifies.
    for (let rotation = 0; rotation < 2; rotation += 1) {
      await unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator);
      bed.clock.advance(KEY_PUBLISH_AHEAD_MS);
    }
    before = await unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password });
    const created = await unaryCall(
      bed.client,
      'CreateOAuthClient',
      { name: 'ERP sync', scopes: ['products:read'], tenantId: '' },
      { authorization: `Bearer ${before.accessToken}` },
    );
    oauthClient = { clientId: created.client!.clientId, clientSecret: created.clientSecret };
    kidsBefore = await jwksKids(bed.client);
    signingKidBefore = kidOf(before.accessToken);
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('opens the keys sealed under the old secret with the new one current and re-seals every one under it', async () => {
    expect(kidsBefore).toHaveLength(3);
    expect(await sealMarks(bed)).toEqual(Array(3).fill(keyEncryptionKeyId(SECRET_A)));

    const rolled = bed.replica(DURING_ROTATION);
    await rolled.prepare();
    expect(await sealMarks(bed)).toEqual(Array(3).fill(keyEncryptionKeyId(SECRET_B)));
    expect((await rolled.keyRing.jwks(bed.clock.now())).map((key) => key.kid).sort()).toEqual(kidsBefore);

    // Another replica starting with the same settings finds nothing left to do.
    const seals = await storedSeals(bed);
    const again = bed.replica(DURING_ROTATION);
    expect(await again.keyRing.resealStoredKeys()).toEqual([]);
    await again.prepare();
    expect(await storedSeals(bed)).toEqual(seals);
  });

  it('then starts with the new secret alone: same keys, and earlier tokens, refresh tokens and client secrets still work', async () => {
    const app = bed.replica(AFTER_ROTATION);
    await app.prepare();
    const served = await bed.serve(app);
    try {
      expect(await jwksKids(served.client)).toEqual(kidsBefore);
      const login = await unaryCall(served.client, 'Login', { email: owner.email, password: owner.password });
      expect(kidOf(login.accessToken)).toBe(signingKidBefore);

      const verifier = createTokenVerifier({
        issuer: TOKENS.issuer,
        audience: TOKENS.audience,
        now: () => bed.clock.now().getTime(),
        fetchJwks: async () => ({
          keys: (await unaryCall(served.client, 'GetJwks', {})).keys.map((key) => ({ ...key })),
        }),
      });
      await expect(verifier.verify(before.accessToken)).resolves.toMatchObject({ subject: owner.userId });

      const refreshed = await unaryCall(served.client, 'Refresh', { refreshToken: before.refreshToken });
      await expect(verifier.verify(refreshed.accessToken)).resolves.toMatchObject({ subject: owner.userId });
      const granted = await unaryCall(served.client, 'IssueClientToken', { ...oauthClient, scope: '' });
      await expect(verifier.verify(granted.accessToken)).resolves.toMatchObject({
        subject: oauthClient.clientId,
      });
    } finally {
      await served.close();
    }
  });

  it('stays not ready with secrets that open no key, in a log line that names the secrets by id only', async () => {
    const logger = createLogger({ service: 'identity-test', level: 'silent' });
    const logged = jest.spyOn(logger, 'error');
    const seals = await storedSeals(bed);
    const wrong = bed.replica({
      tokens: { keyEncryptionSecret: SECRET_C, keyEncryptionSecretPrevious: SECRET_A },
      tokenHashSecret: PINNED_TOKEN_HASH_SECRET,
      logger,
    });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const failure = await failureOf(wrong.prepare());
      expect(failure.code).toBe('SIGNING_KEY_SEALED_UNDER_UNKNOWN_SECRET');
      expect(failure.message).toContain(`KEY_ENCRYPTION_SECRET (id ${keyEncryptionKeyId(SECRET_C)})`);
      expect(failure.message).toContain(
        `KEY_ENCRYPTION_SECRET_PREVIOUS (id ${keyEncryptionKeyId(SECRET_A)})`,
      );
      expect(failure.message).toContain(`sealed under id ${keyEncryptionKeyId(SECRET_B)}`);
    }
    expect(logged).toHaveBeenCalledTimes(2);
    const line = JSON.stringify(logged.mock.calls);
    expect(line).toContain('opens with neither KEY_ENCRYPTION_SECRET');
    for (const secret of [SECRET_A, SECRET_B, SECRET_C, PINNED_TOKEN_HASH_SECRET])
      expect(line).not.toContain(secret);
    expect((await failureOf(signingKid(wrong, bed.clock.now()))).code).toBe('SIGNING_KEY_UNAVAILABLE');
    // Nothing was changed: the right secret still opens every key.
    expect(await storedSeals(bed)).toEqual(seals);
    await expect(bed.replica(AFTER_ROTATION).prepare()).resolves.toBeUndefined();
  });
});

describe('re-sealing during the roll', () => {
  let bed: IdentityBed;

  beforeAll(async () => {
    bed = await openIdentityBed('key_encryption_roll');
    await unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator);
    bed.clock.advance(KEY_PUBLISH_AHEAD_MS);
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('is safe when several replicas start at once with the new secret', async () => {
    const replicas = [1, 2, 3].map(() => bed.replica(DURING_ROTATION));
    await Promise.all(replicas.map((replica) => replica.prepare()));
    expect(await sealMarks(bed)).toEqual([keyEncryptionKeyId(SECRET_B), keyEncryptionKeyId(SECRET_B)]);
    const alone = bed.replica(AFTER_ROTATION);
    await alone.prepare();
    const now = bed.clock.now();
    const kids = await Promise.all(replicas.map((replica) => signingKid(replica, now)));
    expect(new Set(kids)).toEqual(new Set([await signingKid(alone, now)]));
  });

  it('re-seals a key that a replica still on the old secret created meanwhile', async () => {
    const rolled = bed.replica(DURING_ROTATION);
    await rolled.prepare();
    // The bed's own app has not rolled yet (secret A only) and rotates the signing key.
    const rotated = await unaryCall(bed.client, 'RotateSigningKey', {}, bed.operator);
    expect(decodeProtectedHeader((await storedSeals(bed)).get(rotated.kid)!).kid).toBe(
      keyEncryptionKeyId(SECRET_A),
    );
    bed.clock.advance(KEY_PUBLISH_AHEAD_MS);
    await rolled.keyRing.refresh(bed.clock.now());
    expect(await signingKid(rolled, bed.clock.now())).toBe(rotated.kid);
    expect(decodeProtectedHeader((await storedSeals(bed)).get(rotated.kid)!).kid).toBe(
      keyEncryptionKeyId(SECRET_B),
    );
  });
});

describe('keys sealed before the seal named its secret', () => {
  let bed: IdentityBed;

  beforeAll(async () => {
    bed = await openIdentityBed('key_encryption_unmarked');
    // Rewrite each stored key as earlier releases sealed it: same key and algorithms, no kid.
    const keys = bed.db.collection<{ _id: string; sealedPrivateJwk: string }>('signing_keys');
    const sealingKey = new Uint8Array(createHash('sha256').update(SECRET_A, 'utf8').digest());
    for (const [kid, sealed] of await storedSeals(bed)) {
      const privateJwk = await unsealPrivateJwk(sealed, SECRET_A);
      const unmarked = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'jwk+json' })
        .encrypt(sealingKey);
      await keys.updateOne({ _id: kid }, { $set: { sealedPrivateJwk: unmarked } });
    }
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('open with the previous secret as a fallback and are re-sealed, marked, under the current one', async () => {
    expect(await sealMarks(bed)).toEqual([undefined]);
    const kid = await signingKid(bed.app, bed.clock.now());
    const rolled = bed.replica(DURING_ROTATION);
    await rolled.prepare();
    expect(await sealMarks(bed)).toEqual([keyEncryptionKeyId(SECRET_B)]);
    expect(await signingKid(rolled, bed.clock.now())).toBe(kid);
  });
});
