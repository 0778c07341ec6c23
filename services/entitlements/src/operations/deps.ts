import { getTier, type Tier } from '../domain/index.js';
import type { TenantWriteLock } from '../store/tenant-write-lock.js';
import type { TierAssignmentsRepository } from '../store/tier-assignments-repository.js';
import type { TracedProductsRepository } from '../store/traced-products-repository.js';
import type { UsageRepository } from '../store/usage-repository.js';

/**
 * Conditional writes that lost to a concurrent change are re-read and re-planned this many
 * times, then fail with RESERVATION_CONTENDED (UNAVAILABLE: the caller tries again later).
 */
export const MAX_WRITE_ATTEMPTS = 3;

/** What the usage operations (domain rules over the store) work with. */
export interface UsageOperationsDeps {
  readonly usage: UsageRepository;
  readonly traced: TracedProductsRepository;
  readonly tiers: TierAssignmentsRepository;
  readonly lock: TenantWriteLock;
  readonly now: () => Date;
}

/** The tenant's tier as stored now (never cached, so SetTier is seen by the next call). */
export async function tierOf(tiers: TierAssignmentsRepository, tenantId: string, now: Date): Promise<Tier> {
  return getTier((await tiers.findOrCreate(tenantId, now)).tierCode);
}
