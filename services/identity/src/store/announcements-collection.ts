import type { Collection, Document, Filter } from 'mongodb';
import type { AnnouncementsRepository } from '../operations/ports/announcements-repository.js';

/** The fields the outbox adds to an announced document (users, oauth_clients). */
export interface AnnouncedFields<Announced> {
  _id: string;
  announcePending?: boolean;
  announced?: Announced;
  announcedVersion?: number;
}

/**
 * The announcement half of a collection whose writes set `announcePending` and bump
 * `versionField` in the same update. `toCurrent` maps a document to what is announced.
 */
export function announcementsOver<Doc extends AnnouncedFields<Announced>, Announced, Current>(
  collection: Collection<Doc>,
  versionField: string,
  toCurrent: (doc: Doc) => Current,
): AnnouncementsRepository<Announced, Current> {
  const coll = collection as unknown as Collection<Document>;
  return {
    async ensureIndexes() {
      await coll.createIndex({ announcePending: 1 }, { name: 'announce_pending' });
    },
    async pending(limit) {
      const docs = await coll
        .find({ announcePending: true }, { projection: { _id: 1 } })
        .limit(limit)
        .toArray();
      return docs.map((doc) => String(doc['_id']));
    },
    async state(id) {
      const doc = (await coll.findOne({ _id: id } as unknown as Filter<Document>)) as Doc | null;
      if (doc === null) return undefined;
      const version = (doc as unknown as Record<string, unknown>)[versionField];
      return {
        version: typeof version === 'number' ? version : 0,
        announced: doc.announced ?? null,
        current: toCurrent(doc),
      };
    },
    async settle(id, version, announced, options = {}) {
      const atVersion = { _id: id, [versionField]: version } as unknown as Filter<Document>;
      if (options.remove) {
        if ((await coll.deleteOne(atVersion)).deletedCount === 1) return;
      } else {
        const done = await coll.updateOne(atVersion, {
          $set: { announced, announcedVersion: version, announcePending: false },
        });
        if (done.matchedCount === 1) return;
      }
      // A write came in meanwhile: what was published is recorded (so the next announcement
      // starts from it and derives no event twice) and the mark stays for that write.
      await coll.updateOne(
        {
          _id: id,
          $or: [{ announcedVersion: { $lt: version } }, { announcedVersion: { $exists: false } }],
        } as unknown as Filter<Document>,
        { $set: { announced, announcedVersion: version } },
      );
    },
    async markUnannounced() {
      const result = await coll.updateMany(
        { announced: { $exists: false }, announcePending: { $ne: true } },
        { $set: { announcePending: true } },
      );
      return result.modifiedCount;
    },
  };
}
