import type { AccessClaims } from '@tap/tokens';
import {
  DEFAULT_TIER_CODE,
  recompute,
  UNSEEN_TIER,
  type RecomputeResult,
  type TierView,
  type UpgradeContexts,
} from '../domain/index.js';
import type { RecomputeMemo } from './recompute-memo.js';
import {
  storedCompletions,
  type AggregatesRepository,
  type TenantAggregate,
  type TierCatalogue,
} from './ports.js';

/** The verified caller of an RPC: its claims and the credential it presented. */
export interface Caller {
  readonly claims: AccessClaims;
  readonly authorization: string;
}

/** What the read path needs. */
export interface TenantReadDeps {
  /** The store, for writers: a compare-and-set needs the version as stored now. */
  readonly aggregates: AggregatesRepository;
  /**
   * The read model: the aggregate from the in-process cache, never older than a version this
   * replica wrote or was told about (docs/adoption-model.md, "Read models").
   */
  readonly readAggregate: (tenantId: string) => Promise<TenantAggregate>;
  /** Shares a read's recompute with the next reads of the same cached aggregate and tier. */
  readonly recomputeMemo?: RecomputeMemo;
  /** The per-tier table entitlements' `tier.changed` events filled (upgrade offers). */
  readonly tiers: TierCatalogue;
  readonly logger: { warn(object: object, message: string): void };
  readonly now: () => Date;
}

/** The tenant's tier as adoption holds it, and the upgrade offers of what it lacks. */
export interface CallerTier {
  readonly tier: TierView;
  readonly upgradeContexts: UpgradeContexts;
}

/**
 * The tenant's tier: the one its last `tier.changed` set (entitlements' default tier before
 * any), and, when milestones are shown, that tier's upgrade offers from the per-tier table.
 * Nothing here calls entitlements or writes: the tier arrived by event.
 */
export async function tenantTier(
  deps: Pick<TenantReadDeps, 'tiers'>,
  aggregate: TenantAggregate,
  options: { upgradeContexts: boolean },
): Promise<CallerTier> {
  const entry = await deps.tiers.entry(aggregate.tier?.tierCode ?? DEFAULT_TIER_CODE);
  const tier = aggregate.tier ?? entry ?? UNSEEN_TIER;
  return { tier, upgradeContexts: options.upgradeContexts ? (entry?.upgradeContexts ?? {}) : {} };
}

/** The state as of now for a read: the stored facts under the tenant's tier. */
export function recomputeForRead(aggregate: TenantAggregate, caller: CallerTier, now: Date): RecomputeResult {
  return recompute({
    companyId: aggregate.tenantId,
    pathProfile: caller.tier.pathProfile,
    facts: aggregate.facts,
    manualCompletions: storedCompletions(aggregate),
    capabilities: caller.tier.capabilities,
    upgradeContexts: caller.upgradeContexts,
    previousBand: aggregate.lastBand,
    version: aggregate.version,
    now,
  });
}

/** One read of the tenant: aggregate, tier and the recompute as of now. */
export interface TenantRead {
  readonly aggregate: TenantAggregate;
  readonly tier: CallerTier;
  readonly result: RecomputeResult;
}

/** The one read path shared by the adoption RPCs. The tenant comes from verified claims only. */
export async function readTenant(
  deps: TenantReadDeps,
  caller: Caller,
  options: { upgradeContexts: boolean },
): Promise<TenantRead> {
  const aggregate = await deps.readAggregate(caller.claims.tenantId);
  const tier = await tenantTier(deps, aggregate, options);
  const now = deps.now();
  const compute = () => recomputeForRead(aggregate, tier, now);
  const result = deps.recomputeMemo
    ? deps.recomputeMemo(aggregate, tier.tier, tier.upgradeContexts, now, compute)
    : compute();
  return { aggregate, tier, result };
}
