import { describe, expect, it } from '@jest/globals';
import { recompute } from '../state/recompute.js';
import { ALL_CAPABILITIES, dayAt, fact, isoAt, recomputeInput } from '../testing/fact-builders.js';
import { detectedCompletion, newCompletions } from './detected-completions.js';

const state = recompute(
  recomputeInput({
    facts: [fact('company.profile_completed', 0), fact('product.created', 1)],
    capabilities: ALL_CAPABILITIES,
    now: dayAt(2),
  }),
).state;

describe('newCompletions', () => {
  it('names every DONE milestone no stored completion records, with the instant it was completed', () => {
    expect(newCompletions(state, [])).toEqual([
      { key: 'company_profile_completed', completedAt: isoAt(0) },
      { key: 'first_product_created', completedAt: isoAt(1) },
    ]);
  });

  it('names nothing a stored completion already records, so each milestone is completed once', () => {
    expect(newCompletions(state, [{ key: 'company_profile_completed' }])).toEqual([
      { key: 'first_product_created', completedAt: isoAt(1) },
    ]);
    expect(
      newCompletions(state, [{ key: 'company_profile_completed' }, { key: 'first_product_created' }]),
    ).toEqual([]);
  });

  it('stores a detected completion without actor or evidence, under the id its event carries', () => {
    expect(detectedCompletion({ key: 'k', completedAt: isoAt(0) }, 'id-1')).toEqual({
      id: 'id-1',
      key: 'k',
      completedAt: isoAt(0),
      evidenceRef: null,
      actorId: null,
    });
  });
});
