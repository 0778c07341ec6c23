import type { Collection, Db } from 'mongodb';
import type { EventFact, HealthBand, ManualCompletion } from '../domain/index.js';

/**
 * One document per tenant holds everything its adoption state is computed from, so applying an
 * event or a manual completion is one single-document write (MongoDB and FerretDB alike).
 */
interface AggregateDocument {
  _id: string;
  facts: EventFact[];
  manualCompletions: ManualCompletion[];
  /** Band of the last computed state, for the health model's hysteresis. */
  lastBand: HealthBand | null;
  version: number;
  updatedAt: Date;
}

export interface TenantFacts {
  readonly tenantId: string;
  readonly facts: readonly EventFact[];
  readonly manualCompletions: readonly ManualCompletion[];
  readonly lastBand: HealthBand | null;
  readonly version: number;
}

export interface AggregatesRepository {
  load(tenantId: string): Promise<TenantFacts>;
  /** Appends a fact unless one with its id is there already: at most once per event. */
  applyFact(tenantId: string, fact: EventFact, now: Date): Promise<'applied' | 'duplicate'>;
  /** Appends a manual completion if the aggregate is still at `version`; false when it moved on. */
  recordCompletion(tenantId: string, completion: ManualCompletion, version: number, now: Date): Promise<boolean>;
}

const DUPLICATE_KEY = 11_000;

export function aggregatesRepository(db: Db): AggregatesRepository {
  const aggregates: Collection<AggregateDocument> = db.collection('aggregates');
  return {
    async load(tenantId) {
      const doc = await aggregates.findOne({ _id: tenantId });
      return {
        tenantId,
        facts: doc?.facts ?? [],
        manualCompletions: doc?.manualCompletions ?? [],
        lastBand: doc?.lastBand ?? null,
        version: doc?.version ?? 0,
      };
    },
    async applyFact(tenantId, fact, now) {
      try {
        // The filter only matches a document without this fact; when the fact is there, the
        // upsert tries to insert the same _id again and the unique _id refuses it.
        await aggregates.updateOne(
          { _id: tenantId, 'facts.id': { $ne: fact.id } },
          {
            $push: { facts: fact },
            $inc: { version: 1 },
            $set: { updatedAt: now },
            $setOnInsert: { manualCompletions: [], lastBand: null },
          },
          { upsert: true },
        );
        return 'applied';
      } catch (error) {
        if ((error as { code?: number }).code === DUPLICATE_KEY) return 'duplicate';
        throw error;
      }
    },
    async recordCompletion(tenantId, completion, version, now) {
      try {
        const result = await aggregates.updateOne(
          // Version 0 means no document yet: the upsert creates it, and loses to a concurrent creator.
          version === 0 ? { _id: tenantId, version: { $exists: false } } : { _id: tenantId, version },
          {
            $push: { manualCompletions: completion },
            $inc: { version: 1 },
            $set: { updatedAt: now },
            $setOnInsert: { facts: [], lastBand: null },
          },
          { upsert: version === 0 },
        );
        return result.matchedCount + result.upsertedCount === 1;
      } catch (error) {
        if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
        throw error;
      }
    },
  };
}
