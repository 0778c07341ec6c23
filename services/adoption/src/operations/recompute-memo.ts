import type { RecomputeResult, TierView, UpgradeContexts } from '../domain/index.js';
import type { TenantAggregate } from './ports.js';

/** How long a recompute is reused for reads of the same cached aggregate and tier (the 1 s freshness). */
export const RECOMPUTE_REUSE_MS = 1_000;

/** Returns `compute()`, or the result of an equal recompute less than RECOMPUTE_REUSE_MS old. */
export type RecomputeMemo = (
  aggregate: TenantAggregate,
  tier: TierView,
  upgradeContexts: UpgradeContexts,
  now: Date,
  compute: () => RecomputeResult,
) => RecomputeResult;

interface Memo {
  readonly tier: TierView;
  readonly upgradeContexts: UpgradeContexts;
  /** The service clock (tests move it) and the wall clock when it was computed. */
  readonly at: number;
  readonly wallAt: number;
  readonly result: RecomputeResult;
}

/** Same keys, same (cached, so identical) context objects. */
function sameContexts(a: UpgradeContexts, b: UpgradeContexts): boolean {
  const keys = Object.keys(a) as (keyof UpgradeContexts)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Reuses a read's recompute for the next reads of the same aggregate object under the same tier
 * object (both come from the read-model caches, so a write or a tier change makes new objects
 * and a new recompute) for at most RECOMPUTE_REUSE_MS on both the service clock and the wall
 * clock: under load, 64 callers of one tenant share one recompute instead of each paying it.
 * Keyed weakly by the aggregate: an aggregate dropped from the cache takes its memo with it.
 */
export function createRecomputeMemo(): RecomputeMemo {
  // Two per aggregate: reads with upgrade contexts (state, next best action) and without.
  const memos = new WeakMap<TenantAggregate, Memo[]>();
  return (aggregate, tier, upgradeContexts, now, compute) => {
    const at = now.getTime();
    const wallAt = Date.now();
    const kept = (memos.get(aggregate) ?? []).filter(
      (m) => Math.abs(at - m.at) < RECOMPUTE_REUSE_MS && wallAt - m.wallAt < RECOMPUTE_REUSE_MS,
    );
    const memo = kept.find((m) => m.tier === tier && sameContexts(m.upgradeContexts, upgradeContexts));
    if (memo) return memo.result;
    const result = compute();
    memos.set(aggregate, [...kept.slice(-1), { tier, upgradeContexts, at, wallAt, result }]);
    return result;
  };
}
