import { describe, expect, it } from '@jest/globals';
import { entitlementErrors } from './errors.js';

const entries = Object.entries(entitlementErrors.catalogue);

// UPPER_SNAKE codes, non-empty messages and known kinds are enforced by defineErrors at import
// and by the types; what is tested here is what neither enforces.
describe('the entitlements error catalogue', () => {
  it('gives every code a sentence for a message', () => {
    for (const [, entry] of entries) expect(entry.message).toMatch(/^[A-Z].*\.$/);
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
});
