import { describe, expect, it } from '@jest/globals';
import { PRODUCT_EVENT_KINDS as CONTRACT_KINDS } from '@tap/contracts';
import { TIER_CHANGED_EVENT } from '../tier/tier.js';
import { EVENT_KINDS } from './event-kinds.js';

// The domain reads the kinds from the published contract (proto/tap/events/v1, @tap/contracts);
// this test keeps its one exception, tier.changed, named as domain/tier names it.
describe('the event kinds adoption understands', () => {
  // tier.changed is no fact: the consumer applies it as the tenant's tier (domain/tier).
  it('are exactly the kinds of the product-event contract, but tier.changed', () => {
    expect([...EVENT_KINDS, TIER_CHANGED_EVENT].sort()).toEqual([...CONTRACT_KINDS].sort());
  });
});
