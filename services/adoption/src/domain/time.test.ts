import { describe, expect, it } from '@jest/globals';
import { decayWeight, parseInstant, toIso } from './time.js';

describe('parseInstant', () => {
  it('reads zoned ISO 8601 timestamps', () => {
    expect(parseInstant('2025-03-01T10:00:00Z')).toBe(Date.UTC(2025, 2, 1, 10));
    expect(parseInstant('2025-03-01T12:00:00.250+02:00')).toBe(Date.UTC(2025, 2, 1, 10, 0, 0, 250));
    expect(parseInstant('2025-03-01T10:00Z')).toBe(Date.UTC(2025, 2, 1, 10));
  });

  it('rejects dates without a zone, impossible dates and non-strings', () => {
    for (const bad of [
      '2025-03-01',
      '2025-03-01T10:00:00',
      '2025-02-30T00:00:00Z',
      '2025-01-01T24:00:00Z',
      'soon',
      42,
      null,
    ]) {
      expect(parseInstant(bad)).toBeNull();
    }
  });

  it('answers the same when asked again, valid or not, past its memory’s bound too', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(parseInstant('2025-03-01T10:00:00Z')).toBe(Date.UTC(2025, 2, 1, 10));
      expect(parseInstant('2025-02-30T00:00:00Z')).toBeNull();
    }
    for (let i = 0; i < 60_000; i += 1)
      parseInstant(new Date(Date.UTC(2025, 0, 1) + i * 1_000).toISOString());
    expect(parseInstant('2025-02-30T00:00:00Z')).toBeNull();
    expect(parseInstant('2025-01-01T00:00:01.000Z')).toBe(Date.UTC(2025, 0, 1, 0, 0, 1));
  });

  it('round-trips through toIso in canonical UTC form', () => {
    expect(toIso(parseInstant('2025-03-01T12:00:00+02:00') ?? 0)).toBe('2025-03-01T10:00:00.000Z');
  });
});

describe('decayWeight', () => {
  it('halves once per half-life and treats future instants as fresh', () => {
    expect(decayWeight(0, 10)).toBe(1);
    expect(decayWeight(10, 10)).toBe(0.5);
    expect(decayWeight(20, 10)).toBe(0.25);
    expect(decayWeight(-5, 10)).toBe(1);
  });
});
