import { getTier, type Tier } from '../domain/index.js';
import type { TierAssignmentsRepository } from './ports/tier-assignments-repository.js';
import type { TracedProductsRepository } from './ports/traced-products-repository.js';
import type { UsageRepository } from './ports/usage-repository.js';
import type { TenantLock } from './usage-batch-ports.js';

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
  /** One per process, shared by gRPC, the consumer and the clean-up job. */
  readonly lock: TenantLock;
  readonly now: () => Date;
}

/** The tenant's tier as stored now (never cached, so SetTier is seen by the next call). */
export async function tierOf(tiers: TierAssignmentsRepository, tenantId: string, now: Date): Promise<Tier> {
  return getTier((await tiers.findOrCreate(tenantId, now)).tierCode);
}
