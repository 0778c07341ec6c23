import type { Collection, Db } from 'mongodb';

/** What a magic link does when it is redeemed. */
export type MagicLinkIntent =
  | { readonly kind: 'sign-in'; readonly userId: string; readonly tenantId: string }
  /** SSO found an account with the provider's email: the mailbox confirms before the link is made. */
  | {
      readonly kind: 'link';
      readonly userId: string;
      readonly tenantId: string;
      readonly provider: string;
      readonly subject: string;
    }
  | {
      readonly kind: 'sign-up';
      readonly email: string;
      readonly companyName: string;
      readonly firstName: string;
      readonly lastName: string;
    };

interface MagicLinkDocument {
  /** The token's keyed hash: the token itself is never stored. */
  _id: string;
  intent: MagicLinkIntent;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Single-use magic-link tokens, by keyed hash. */
export interface MagicLinksRepository {
  ensureIndexes(): Promise<void>;
  insert(hash: string, intent: MagicLinkIntent, now: Date, expiresAt: Date): Promise<void>;
  /** Marks the link used if it is unused and unexpired; its intent, or undefined (one winner). */
  consume(hash: string, now: Date): Promise<MagicLinkIntent | undefined>;
  /** Deletes links that expired before `before`, used or not; how many. */
  deleteExpired(before: Date): Promise<number>;
}

export function magicLinksRepository(db: Db): MagicLinksRepository {
  const links: Collection<MagicLinkDocument> = db.collection('magic_links');
  return {
    async ensureIndexes() {
      // For the sweep of expired links (jobs/background.ts).
      await links.createIndex({ expiresAt: 1 }, { name: 'expiry' });
    },
    async insert(hash, intent, now, expiresAt) {
      await links.insertOne({ _id: hash, intent, createdAt: now, expiresAt, usedAt: null });
    },
    async consume(hash, now) {
      const doc = await links.findOneAndUpdate(
        { _id: hash, usedAt: null, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
        { returnDocument: 'after' },
      );
      return doc?.intent;
    },
    async deleteExpired(before) {
      return (await links.deleteMany({ expiresAt: { $lt: before } })).deletedCount;
    },
  };
}
