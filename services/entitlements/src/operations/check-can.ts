import { evaluateCan, getTier, type CanDecision } from '../domain/index.js';
import type { EntitlementsView } from './tenant-view.js';
import { snapshotOf } from './usage-snapshot.js';

/** Can: whether the tenant (its view) may spend `resourceCount` units of `action` now (nothing is held). */
export function canDecisionOf(
  view: EntitlementsView,
  request: { readonly action: string; readonly resourceCount: number },
  now: Date,
): CanDecision {
  return evaluateCan(
    getTier(view.tier.tierCode),
    snapshotOf(view.usage, now),
    request.action,
    request.resourceCount,
  );
}
