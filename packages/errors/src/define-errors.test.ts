import { describe, expect, it } from '@jest/globals';
import { DomainError, defineErrors } from './index.js';

describe('defineErrors', () => {
  const errors = defineErrors({
    THING_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such thing' },
    THING_LOCKED: { kind: 'FAILED_PRECONDITION', message: 'The thing is locked' },
  });

  it('creates errors carrying code, kind, the catalogue message and details', () => {
    const error = errors.create('THING_NOT_FOUND', { details: { key: 'x' } });
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('THING_NOT_FOUND');
    expect(error.kind).toBe('NOT_FOUND');
    expect(error.message).toBe('No such thing');
    expect(error.details).toEqual({ key: 'x' });
  });

  it('recognises its own errors by code, and not foreign ones', () => {
    const error = errors.create('THING_LOCKED');
    expect(errors.is(error)).toBe(true);
    expect(errors.is(error, 'THING_LOCKED')).toBe(true);
    expect(errors.is(error, 'THING_NOT_FOUND')).toBe(false);
    expect(errors.is(new DomainError('OTHER', 'CONFLICT', 'x'))).toBe(false);
    expect(errors.is(new Error('plain'))).toBe(false);
  });

  it('rejects a catalogue whose codes are not UPPER_SNAKE', () => {
    expect(() => defineErrors({ notSnake: { kind: 'CONFLICT', message: 'x' } })).toThrow(/UPPER_SNAKE/);
  });
});
