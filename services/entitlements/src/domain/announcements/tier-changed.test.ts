import { describe, expect, it } from '@jest/globals';
import { CAPABILITY_KEYS } from '../catalogue/keys.js';
import { getTier } from '../catalogue/tier-lookup.js';
import { buildUpgradeContext } from '../upgrade/upgrade-context.js';
import { TIER_CATALOGUE_VERSION, tierChangedData } from './tier-changed.js';

describe('tierChangedData', () => {
  it('announces the tier, what it grants and the catalogue version', () => {
    const data = tierChangedData(getTier('CORE'));
    expect(data).toMatchObject({
      tierCode: 'CORE',
      tierName: getTier('CORE').name,
      pathProfile: 'SUPPLIER',
      catalogueVersion: TIER_CATALOGUE_VERSION,
    });
    expect(data.capabilities).toEqual(CAPABILITY_KEYS.filter((key) => getTier('CORE').capabilities[key]));
  });

  it('carries the upgrade context of every capability the tier lacks, and none it grants', () => {
    const tier = getTier('SUPPLIER_FREE');
    const data = tierChangedData(tier);
    for (const [key, granted] of Object.entries(tier.capabilities)) {
      if (granted) expect(data.upgradeContexts[key]).toBeUndefined();
      else expect(data.upgradeContexts[key]).toEqual(buildUpgradeContext(tier, key));
    }
  });
});
