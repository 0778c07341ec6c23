import {
  emptyProjection,
  UNSEEN_TIER,
  type HealthBand,
  type TenantProjection,
} from '../../src/domain/index.js';
import type { DerivedRecord } from '../../src/ports.js';

/** A projection for store tests that write derived records by hand (its content is not their subject). */
export const SOME_PROJECTION: TenantProjection = emptyProjection({
  tenantId: 'store-test',
  tier: UNSEEN_TIER,
  upgradeContexts: {},
  now: new Date(0),
});

/** A derived record for store tests that write one by hand: no events, signals or check, SOME_PROJECTION. */
export function someDerived(lastBand: HealthBand = 'ONBOARDING'): DerivedRecord {
  return {
    lastBand,
    lastRung: 'ONBOARDED',
    events: [],
    signals: [],
    scheduledCheck: null,
    projection: SOME_PROJECTION,
  };
}
