import { evaluateCan, getTier, type CanDecision } from '../domain/index.js';
import type { ReadOperationsDeps } from './read-deps.js';
import { snapshotOf } from './usage-snapshot.js';

/** Can: whether the tenant may spend `resourceCount` units of `action` now (nothing is held). */
export async function checkCan(
  deps: ReadOperationsDeps,
  tenantId: string,
  request: { readonly action: string; readonly resourceCount: number },
): Promise<CanDecision> {
  const now = deps.now();
  const view = await deps.reads.view(tenantId);
  return evaluateCan(
    getTier(view.tier.tierCode),
    snapshotOf(view.usage, now),
    request.action,
    request.resourceCount,
  );
}
