import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import type { MagicLinksRepository } from '../src/operations/ports/magic-links-repository.js';
import { magicLinksRepository } from '../src/store/magic-links-repository.js';

const MINUTE = 60_000;
const signIn = { kind: 'sign-in', userId: 'u1', tenantId: 't1' } as const;

describe('the sweep of expired magic links', () => {
  let mongo: MongoClient;
  let db: Db;
  let links: MagicLinksRepository;

  beforeAll(async () => {
    mongo = new MongoClient(infraUrls().mongoUrl);
    db = mongo.db(testNamespace('magic_sweep'));
    links = magicLinksRepository(db);
    await links.ensureIndexes();
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  const hash = () => randomBytes(16).toString('hex');

  it('deletes expired links, used or not, and keeps the live ones redeemable', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const at = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);
    const expiredUnused = hash();
    const expiredUsed = hash();
    const live = hash();
    const liveUsed = hash();
    await links.insert(expiredUnused, signIn, at(-30), at(-15));
    await links.insert(expiredUsed, signIn, at(-20), at(-5));
    expect(await links.consume(expiredUsed, at(-10))).toEqual(signIn);
    await links.insert(live, signIn, at(-1), at(14));
    await links.insert(liveUsed, signIn, at(-2), at(13));
    expect(await links.consume(liveUsed, at(-1))).toEqual(signIn);

    expect(await links.deleteExpired(now)).toBe(2);

    const left = await db
      .collection<{ _id: string }>('magic_links')
      .find({}, { projection: { _id: 1 } })
      .toArray();
    expect(left.map((doc) => doc._id).sort()).toEqual([live, liveUsed].sort());
    // The live link still works once, the used one still does not.
    expect(await links.consume(live, now)).toEqual(signIn);
    expect(await links.consume(live, now)).toBeUndefined();
    expect(await links.consume(liveUsed, now)).toBeUndefined();
    // A second sweep finds nothing more.
    expect(await links.deleteExpired(now)).toBe(0);
  });
});
