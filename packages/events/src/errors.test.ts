import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@tap/errors';
import { PermanentEventError, eventErrors, isPermanentEventError } from './errors.js';

describe('the events error catalogue', () => {
  it('makes a permanent failure a domain error of its catalogue with its code', () => {
    const error = new PermanentEventError('milestone no longer exists', { details: { key: 'm1' } });
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('EVENT_PERMANENT_FAILURE');
    expect(eventErrors.is(error, 'EVENT_PERMANENT_FAILURE')).toBe(true);
    expect(isPermanentEventError(error)).toBe(true);
  });

  it('does not take other errors for permanent ones', () => {
    expect(isPermanentEventError(new Error('database down'))).toBe(false);
    expect(isPermanentEventError(eventErrors.create('EVENT_PUBLISH_FAILED'))).toBe(false);
  });
});
