import type { Collection, Db } from 'mongodb';
import type { TierEntry } from '../domain/index.js';
import type { TierCatalogue } from '../ports.js';
import { isDuplicateKey } from './write-helpers.js';

/** One document per tier (`_id` = tier code): the newest catalogue version's entry. */
export const TIER_CATALOGUE_COLLECTION = 'tier_catalogue';
/**
 * How long the entries read are used before they are read again: another replica's consumer may
 * have stored a newer catalogue version. A handful of small documents, read at most this often.
 */
export const TIER_CATALOGUE_REFRESH_MS = 10_000;

interface TierEntryDocument {
  _id: string;
  entry: TierEntry;
  catalogueVersion: number;
}

/**
 * The per-tier table over `db`, held in memory: it has one entry per tier (five), each a function
 * of (tier, catalogue version), so holding it is not a cache of tenant data.
 */
export function tierCatalogueRepository(
  db: Db,
  clock: () => number = () => performance.now(),
): TierCatalogue {
  const entries: Collection<TierEntryDocument> = db.collection(TIER_CATALOGUE_COLLECTION);
  let held = new Map<string, TierEntry>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | null = null;
  const refresh = () => {
    reading ??= entries
      .find({})
      .toArray()
      .then((docs) => {
        // Merged, newest catalogue version winning: an entry `put` while this read was in flight
        // is newer than what the read found, and must not be lost until the next refresh.
        const next = new Map(held);
        for (const d of docs) {
          const mine = next.get(d._id);
          if (mine === undefined || mine.catalogueVersion <= d.entry.catalogueVersion)
            next.set(d._id, d.entry);
        }
        held = next;
        readAt = clock();
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  return {
    async entry(tierCode) {
      if (clock() - readAt >= TIER_CATALOGUE_REFRESH_MS) await refresh();
      return held.get(tierCode);
    },
    async put(entry) {
      const current = held.get(entry.tierCode);
      if (current !== undefined && current.catalogueVersion > entry.catalogueVersion) return;
      // Replace only an older (or equal) version's entry; a newer one stays.
      try {
        await entries.updateOne(
          { _id: entry.tierCode, catalogueVersion: { $lte: entry.catalogueVersion } },
          { $set: { entry, catalogueVersion: entry.catalogueVersion } },
          { upsert: true },
        );
        held = new Map(held).set(entry.tierCode, entry);
      } catch (error) {
        // The upsert met a newer version's document: that one stays (and is read at the refresh).
        if (!isDuplicateKey(error)) throw error;
      }
    },
  };
}
