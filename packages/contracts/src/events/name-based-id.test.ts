import { describe, expect, it } from '@jest/globals';
import { nameBasedId } from './name-based-id.js';

describe('nameBasedId', () => {
  it('gives the same name the same UUID, and another name another one', () => {
    const id = nameBasedId('tap/test\ntenant-1\n3');
    expect(id).toBe(nameBasedId('tap/test\ntenant-1\n3'));
    expect(id).not.toBe(nameBasedId('tap/test\ntenant-1\n4'));
  });

  it('lays the SHA-1 of the name out as a version-5, RFC 4122 variant UUID', () => {
    // SHA-1("abc") = a9993e364706816aba3e25717850c26c9cd0d89d
    expect(nameBasedId('abc')).toBe('a9993e36-4706-516a-ba3e-25717850c26c');
  });
});
