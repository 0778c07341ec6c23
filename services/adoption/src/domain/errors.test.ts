import { describe, expect, it } from '@jest/globals';
import { DomainError, ERROR_KINDS } from '@tap/errors';
import { adoptionErrors } from './errors.js';

describe('the adoption error catalogue', () => {
  const entries = Object.entries(adoptionErrors.catalogue);

  it('names every code in UPPER_SNAKE with a known kind and a message', () => {
    for (const [code, entry] of entries) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(ERROR_KINDS).toContain(entry.kind);
      expect(entry.message.trim().length).toBeGreaterThan(0);
    }
  });

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

  it('creates DomainErrors that carry the code, kind and details', () => {
    const error = adoptionErrors.create('MILESTONE_NOT_FOUND', { details: { key: 'nope' } });
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('MILESTONE_NOT_FOUND');
    expect(error.kind).toBe('NOT_FOUND');
    expect(error.details).toEqual({ key: 'nope' });
    expect(adoptionErrors.is(error, 'MILESTONE_NOT_FOUND')).toBe(true);
  });
});
