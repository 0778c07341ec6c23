import { emptyProjection, type TenantProjection } from '../domain/index.js';
import type { StoredProjection, TierCatalogue } from '../ports.js';
import { tenantTier } from './tenant-tier.js';

/** What every read RPC needs: the stored projections, and the tier table for an empty tenant. */
export interface ProjectionReadDeps {
  /**
   * The tenant's projection document (app.ts hands the read cache: never older than a write this
   * replica made or was told about; docs/adoption-model.md, "Read models").
   */
  readonly readProjection: (tenantId: string) => Promise<StoredProjection>;
  readonly tiers: TierCatalogue;
  readonly now: () => Date;
}

/**
 * A read RPC's answer before it goes on the wire: built by `view` from `from` and `inputs` alone,
 * so the adapter may keep the wire answer for as long as it holds the same projection object.
 */
export interface ProjectionAnswer<T> {
  readonly from: TenantProjection;
  readonly inputs: readonly unknown[];
  readonly view: () => T;
}

/**
 * The tenant's projection as its last recomputing write stored it. A tenant no write has
 * projected yet gets the empty-tenant projection, computed purely from the catalogue and its
 * tier: nothing is recomputed from facts, nothing is written, entitlements is not called.
 */
export async function projectionFor(deps: ProjectionReadDeps, tenantId: string): Promise<TenantProjection> {
  const stored = await deps.readProjection(tenantId);
  if (stored.projection !== null) return stored.projection;
  const { tier, upgradeContexts } = await tenantTier(deps.tiers, stored.tier);
  return emptyProjection({ tenantId, tier, upgradeContexts, version: stored.version, now: deps.now() });
}
