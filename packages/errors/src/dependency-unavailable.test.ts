import { describe, expect, it } from '@jest/globals';
import { DependencyUnavailableError, isDependencyUnavailable, isDuplicateKey } from './index.js';

describe('isDependencyUnavailable', () => {
  it('recognises our own error, driver errors by name and closed-connection messages', () => {
    expect(isDependencyUnavailable(new DependencyUnavailableError('redis'))).toBe(true);
    const network = Object.assign(new Error('socket'), { name: 'MongoNetworkError' });
    expect(isDependencyUnavailable(network)).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection is closed.'))).toBe(true);
  });

  it('recognises the driver errors of a closed client, a cleared pool and a timed-out wait', () => {
    for (const name of [
      'MongoClientClosedError',
      'MongoExpiredSessionError',
      'MongoPoolClearedError',
      'MongoWaitQueueTimeoutError',
      'MongoOperationTimeoutError',
    ])
      expect(isDependencyUnavailable(Object.assign(new Error('driver'), { name }))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('bad query'), { name: 'MongoServerError' }))).toBe(
      false,
    );
  });

  it('leaves bugs and non-errors alone (they stay INTERNAL)', () => {
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyUnavailable('Connection is closed')).toBe(false);
    expect(isDependencyUnavailable(null)).toBe(false);
  });
});

describe('isDuplicateKey', () => {
  it('is true only for the unique-index violation code', () => {
    expect(isDuplicateKey(Object.assign(new Error('E11000'), { code: 11000 }))).toBe(true);
    expect(isDuplicateKey(Object.assign(new Error('other'), { code: 11001 }))).toBe(false);
    expect(isDuplicateKey(Object.assign(new Error('string code'), { code: '11000' }))).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
  });
});
