import type { AccessClaims } from '@tap/tokens';
import { recompute, type RecomputeResult, type UpgradeContexts } from './domain/index.js';
import type { TenantAggregate } from './store/aggregate-document.js';
import type { RecomputeMemo } from './recompute-memo.js';
import type { AggregatesRepository } from './store/aggregates-repository.js';
import { storedCompletions } from './operations/ports.js';
import { sameTier, type TierLookup, type TierView } from './tier.js';
import {
  fetchUpgradeContexts,
  type UpgradeContextLogger,
  type UpgradeContextLookup,
} from './upgrade-contexts.js';

/** The verified caller of an RPC: its claims and the credential to forward downstream. */
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
  readonly tierOf: TierLookup;
  readonly upgradeContextOf: UpgradeContextLookup;
  readonly logger: UpgradeContextLogger;
  readonly now: () => Date;
}

/** The caller's tier as entitlements names it now, and the upgrade contexts it was asked for. */
export interface CallerTier {
  readonly tier: TierView;
  readonly upgradeContexts: UpgradeContexts;
}

/**
 * Asks entitlements for the caller's tier (and, when milestones are shown, the upgrade contexts
 * of what the tier lacks), and remembers the tier in the aggregate for the consumer and the drift
 * watch, which have no token to ask with.
 */
export async function callerTier(
  deps: TenantReadDeps,
  caller: Caller,
  aggregate: Promise<TenantAggregate>,
  options: { upgradeContexts: boolean },
): Promise<CallerTier> {
  // Together, so a failing tier lookup never leaves the load's rejection unobserved.
  const [tier, stored] = await Promise.all([
    deps.tierOf(caller.authorization, caller.claims.tenantId),
    aggregate,
  ]);
  const [upgradeContexts] = await Promise.all([
    options.upgradeContexts
      ? fetchUpgradeContexts(tier, deps.upgradeContextOf, caller.authorization, deps.logger)
      : {},
    sameTier(stored.tier, tier)
      ? undefined
      : deps.aggregates.saveTier(caller.claims.tenantId, tier, deps.now()),
  ]);
  return { tier, upgradeContexts };
}

/** The state as of now for a read: the stored facts under the caller's current tier. */
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
  const loading = deps.readAggregate(caller.claims.tenantId);
  const tier = await callerTier(deps, caller, loading, options);
  const aggregate = await loading;
  const now = deps.now();
  const compute = () => recomputeForRead(aggregate, tier, now);
  const result = deps.recomputeMemo
    ? deps.recomputeMemo(aggregate, tier.tier, tier.upgradeContexts, now, compute)
    : compute();
  return { aggregate, tier, result };
}
