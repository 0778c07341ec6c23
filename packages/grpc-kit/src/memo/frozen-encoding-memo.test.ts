import { describe, expect, it } from '@jest/globals';
import { deepFreeze } from './deep-freeze.js';
import { memoiseFrozenEncoding } from './frozen-encoding-memo.js';

function counting() {
  const calls = { n: 0 };
  const serialize = (value: unknown): Buffer => {
    calls.n += 1;
    return Buffer.from(JSON.stringify(value));
  };
  return { calls, serialize };
}

describe('memoiseFrozenEncoding', () => {
  it('encodes a frozen message once and sends the same bytes again', () => {
    const { calls, serialize } = counting();
    const encode = memoiseFrozenEncoding(serialize);
    const answer = deepFreeze({ companyId: 't1', milestones: [{ key: 'a' }] });
    const first = encode(answer);
    expect(encode(answer)).toBe(first);
    expect(calls.n).toBe(1);
  });

  it('keeps the bytes in memory of their own, not in a slice of the shared pool', () => {
    const encode = memoiseFrozenEncoding((value: unknown) => Buffer.from(JSON.stringify(value)));
    const bytes = encode(deepFreeze({ companyId: 't1' }));
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(bytes.toString()).toBe('{"companyId":"t1"}');
  });

  it('encodes a message that can still change every time', () => {
    const { calls, serialize } = counting();
    const encode = memoiseFrozenEncoding(serialize);
    const answer = { companyId: 't1', version: 1 };
    expect(encode(answer).toString()).toBe('{"companyId":"t1","version":1}');
    answer.version = 2;
    expect(encode(answer).toString()).toBe('{"companyId":"t1","version":2}');
    expect(calls.n).toBe(2);
  });

  it('keeps equal but distinct frozen messages apart', () => {
    const { calls, serialize } = counting();
    const encode = memoiseFrozenEncoding(serialize);
    expect(encode(deepFreeze({ companyId: 't1' })).toString()).toContain('t1');
    expect(encode(deepFreeze({ companyId: 't2' })).toString()).toContain('t2');
    expect(calls.n).toBe(2);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays and leaves byte arrays alone', () => {
    const value = deepFreeze({ a: [{ b: 1 }], bytes: Buffer.from('x') });
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(Object.isFrozen(value.bytes)).toBe(false);
  });
});
