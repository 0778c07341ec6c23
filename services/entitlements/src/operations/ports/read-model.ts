import type { ReadModelCache } from '../read-model-cache.js';
import type { TierAssignment } from './tier-assignments-repository.js';
import type { UsageRecord } from './usage-repository.js';

/** The cached per-tenant read model the read operations serve from (see read-model-cache.ts). */
export type EntitlementsReadModel = ReadModelCache<TierAssignment, UsageRecord | null>;
