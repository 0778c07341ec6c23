import type { Collection, Db } from 'mongodb';
import type { MagicLinkIntent, MagicLinksRepository } from '../operations/ports/magic-links-repository.js';

interface MagicLinkDocument {
  /** The token's keyed hash: the token itself is never stored. */
  _id: string;
  intent: MagicLinkIntent;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
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
