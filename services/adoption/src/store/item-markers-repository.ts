import type { Collection, Db } from 'mongodb';
import type { StoredMarker } from '../domain/index.js';
import type { ItemMarkers } from '../ports.js';
import { isDuplicateKey } from './write-helpers.js';

/** One marker per (tenant, space, item): `_id` is `${tenantId}|${space}|${item}`. */
export const ITEM_MARKERS_COLLECTION = 'item_markers';
/** Per tenant, the highest stream sequence whose markers may already be in (see `ItemMarkers.fence`). */
export const ITEM_FENCES_COLLECTION = 'item_fences';

interface MarkerDocument {
  _id: string;
  /** The event that put the marker in. */
  e: string;
}

interface FenceDocument {
  _id: string;
  through: number;
}

const idOf = (tenantId: string, key: string): string => `${tenantId}|${key}`;

// The positions an unordered insertMany refused as duplicates; anything else is a real failure.
function duplicatePositions(error: unknown): ReadonlySet<number> {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as {
    index?: number;
  }[];
  if (list.length === 0 || !list.every((e) => isDuplicateKey(e) && typeof e.index === 'number')) throw error;
  return new Set(list.map((e) => e.index as number));
}

/**
 * Item markers on a unique `_id`: inserting a group's markers is one unordered `insertMany`,
 * whose duplicate errors say which items were already there. Its cost is the group's size
 * whatever the tenant holds (an `_id` index lookup per marker), and nothing is read back.
 */
export function itemMarkersRepository(db: Db): ItemMarkers {
  const markers: Collection<MarkerDocument> = db.collection(ITEM_MARKERS_COLLECTION);
  const fences: Collection<FenceDocument> = db.collection(ITEM_FENCES_COLLECTION);
  return {
    async insertFirst(tenantId, entries) {
      if (entries.length === 0) return new Set();
      const docs = entries.map((m) => ({ _id: idOf(tenantId, m.key), e: m.eventId }));
      try {
        await markers.insertMany(docs, { ordered: false });
        return new Set(entries.map((m) => m.key));
      } catch (error) {
        const refused = duplicatePositions(error);
        return new Set(entries.filter((_, i) => !refused.has(i)).map((m) => m.key));
      }
    },
    async find(tenantId, keys) {
      const found = new Map<string, StoredMarker>();
      // One `_id` lookup each: the only query FerretDB answers from its index (an `$in` scans).
      for (const key of keys) {
        const doc = await markers.findOne({ _id: idOf(tenantId, key) });
        if (doc !== null) found.set(key, { eventId: doc.e });
      }
      return found;
    },
    async fence(tenantId, throughSeq) {
      const before = await fences.findOneAndUpdate(
        { _id: tenantId },
        { $max: { through: throughSeq } },
        { upsert: true, returnDocument: 'before' },
      );
      return before?.through ?? 0;
    },
    async countFor(tenantId, space) {
      const prefix = `${tenantId}|${space}|`;
      // Tests and the migration only: a range of `_id`s scans on FerretDB.
      return markers.countDocuments({ _id: { $gte: prefix, $lt: `${prefix}\uffff` } });
    },
  };
}
