import { describe, expect, it } from '@jest/globals';
import { DomainError, ERROR_KINDS } from '@tap/errors';
import { entitlementErrors } from './errors.js';

const entries = Object.entries(entitlementErrors.catalogue);

describe('the entitlements error catalogue', () => {
  it('uses UPPER_SNAKE codes only', () => {
    for (const [code] of entries) expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
  });

  it('gives every code a known kind and a sentence for a message', () => {
    for (const [, entry] of entries) {
      expect(ERROR_KINDS).toContain(entry.kind);
      expect(entry.message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('has no two codes sharing a message, so logs tell them apart', () => {
    const messages = entries.map(([, entry]) => entry.message);
    expect(new Set(messages).size).toBe(messages.length);
  });

  it('names the two denial reasons of can, so a transport can turn a denial into an error', () => {
    expect(entitlementErrors.catalogue.LIMIT_EXCEEDED.kind).toBe('RESOURCE_EXHAUSTED');
    expect(entitlementErrors.catalogue.CAPABILITY_NOT_IN_TIER.kind).toBe('PERMISSION_DENIED');
  });

  it('classes every bad input as INVALID_ARGUMENT', () => {
    for (const [code, entry] of entries) {
      if (code.startsWith('INVALID_') || code.startsWith('UNKNOWN_'))
        expect(entry.kind).toBe('INVALID_ARGUMENT');
    }
  });

  it('creates DomainErrors it recognises by code', () => {
    const error = entitlementErrors.create('UNKNOWN_ACTION', { details: { action: 'FLY' } });
    expect(error).toBeInstanceOf(DomainError);
    expect(entitlementErrors.is(error, 'UNKNOWN_ACTION')).toBe(true);
    expect(error.details).toEqual({ action: 'FLY' });
  });
});
