import { describe, expect, it } from '@jest/globals';
import { contracts } from './load-contracts.js';

describe('contracts()', () => {
  it('loads every service definition from proto/', () => {
    const loaded = contracts();
    expect(Object.keys(loaded.identity.IdentityService.service)).toEqual(
      expect.arrayContaining(['GetJwks', 'GetTenant', 'CreateTenant', 'IssueAccessToken']),
    );
    expect(Object.keys(loaded.adoption.AdoptionService.service)).toEqual(
      expect.arrayContaining(['GetState', 'CompleteMilestone']),
    );
    expect(Object.keys(loaded.entitlements.EntitlementsService.service)).toEqual(
      expect.arrayContaining([
        'GetTier',
        'SetTier',
        'GetUsage',
        'Can',
        'GetUpgradeContext',
        'Reserve',
        'Consume',
        'Release',
      ]),
    );
  });
});
