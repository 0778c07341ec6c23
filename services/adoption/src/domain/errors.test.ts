import { describe, expect, it } from '@jest/globals';
import { adoptionErrors } from './errors.js';

// UPPER_SNAKE codes, non-empty messages and known kinds are enforced by defineErrors at import
// and by the types; what is tested here is what neither enforces.
describe('the adoption error catalogue', () => {
  const entries = Object.entries(adoptionErrors.catalogue);

  it('gives the spec-mandated failures the kinds that map to the spec statuses', () => {
    const expected = {
      MILESTONE_NOT_FOUND: 'NOT_FOUND',
      MILESTONE_DEPENDENCIES_UNMET: 'FAILED_PRECONDITION',
      VERSION_CONFLICT: 'CONFLICT',
      PLAN_ALREADY_ACTIVE: 'CONFLICT',
      PLAN_NOT_FOUND: 'NOT_FOUND',
      ROLE_FORBIDDEN: 'PERMISSION_DENIED',
      MILESTONE_NOT_MANUAL: 'INVALID_ARGUMENT',
      INVALID_TARGET_DATE: 'INVALID_ARGUMENT',
    } as const;
    for (const [code, kind] of Object.entries(expected)) {
      expect(adoptionErrors.catalogue[code as keyof typeof expected].kind).toBe(kind);
    }
  });

  it('has no two codes with the same message, so logs tell them apart', () => {
    const messages = entries.map(([, entry]) => entry.message);
    expect(new Set(messages).size).toBe(messages.length);
  });
});
