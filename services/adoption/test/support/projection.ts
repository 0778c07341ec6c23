import { emptyProjection, UNSEEN_TIER, type TenantProjection } from '../../src/domain/index.js';

/** A projection for store tests that write derived records by hand (its content is not their subject). */
export const SOME_PROJECTION: TenantProjection = emptyProjection({
  tenantId: 'store-test',
  tier: UNSEEN_TIER,
  upgradeContexts: {},
  now: new Date(0),
});
