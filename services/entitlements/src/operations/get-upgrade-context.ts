import { buildUpgradeContext, getTier, type UpgradeContext } from '../domain/index.js';
import type { ReadOperationsDeps } from './read-deps.js';

/** GetUpgradeContext: what the tenant's next tier would give it for `capability`. */
export async function getUpgradeContext(
  deps: Pick<ReadOperationsDeps, 'reads'>,
  tenantId: string,
  request: { readonly capability: string; readonly frictionType?: string },
): Promise<UpgradeContext> {
  const tier = getTier((await deps.reads.view(tenantId)).tier.tierCode);
  return buildUpgradeContext(tier, request.capability, request.frictionType);
}
