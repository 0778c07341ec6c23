import { describe, expect, it } from '@jest/globals';
import { memoiseDecoding } from './reply-decoding-memo.js';

/** A deserializer that counts its calls: the reply is JSON here, the memo does not care. */
function counting() {
  const calls = { n: 0 };
  const decode = (bytes: Buffer): { tenant: string; version: number } => {
    calls.n += 1;
    return JSON.parse(bytes.toString('utf8')) as { tenant: string; version: number };
  };
  return { calls, decode };
}
const reply = (tenant: string, version: number, padding = 0): Buffer =>
  Buffer.from(JSON.stringify({ tenant, version, padding: 'x'.repeat(padding) }));

describe('memoiseDecoding', () => {
  it('decodes the same bytes once and hands every caller the same frozen object', () => {
    const { calls, decode } = counting();
    const memo = memoiseDecoding(decode);
    const first = memo(reply('t1', 1));
    const second = memo(reply('t1', 1));
    expect(second).toBe(first);
    expect(calls.n).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { version: number }).version = 2;
    }).toThrow(TypeError);
  });

  it('never answers one tenant with another tenant’s reply, nor a newer reply with an older one', () => {
    const { calls, decode } = counting();
    const memo = memoiseDecoding(decode);
    expect(memo(reply('t1', 1))).toEqual({ tenant: 't1', version: 1, padding: '' });
    expect(memo(reply('t2', 1))).toEqual({ tenant: 't2', version: 1, padding: '' });
    expect(memo(reply('t1', 2))).toEqual({ tenant: 't1', version: 2, padding: '' });
    expect(memo(reply('t1', 1))).toEqual({ tenant: 't1', version: 1, padding: '' });
    expect(calls.n).toBe(3);
  });

  it('confirms a hit by the bytes themselves, not by the hash alone', () => {
    // Two different inputs with the same CRC-32 and length ("plumless" / "buckeroo").
    const memo = memoiseDecoding((bytes: Buffer) => ({ text: bytes.toString('latin1') }));
    expect(memo(Buffer.from('plumless')).text).toBe('plumless');
    expect(memo(Buffer.from('buckeroo')).text).toBe('buckeroo');
    expect(memo(Buffer.from('plumless')).text).toBe('plumless');
  });

  it('keeps a copy of the bytes, so a reused receive buffer cannot turn into a false hit', () => {
    const { calls, decode } = counting();
    const memo = memoiseDecoding(decode);
    const buffer = reply('t1', 1);
    memo(buffer);
    reply('t1', 2).copy(buffer);
    expect(memo(buffer)).toEqual({ tenant: 't1', version: 2, padding: '' });
    expect(calls.n).toBe(2);
  });

  it('is bounded in entries, least recently used out first', () => {
    const { calls, decode } = counting();
    const memo = memoiseDecoding(decode, { maxEntries: 2 });
    memo(reply('t1', 1));
    memo(reply('t2', 1));
    memo(reply('t1', 1));
    memo(reply('t3', 1));
    expect(memo.size().entries).toBe(2);
    expect(calls.n).toBe(3);
    memo(reply('t1', 1));
    expect(calls.n).toBe(3);
    memo(reply('t2', 1));
    expect(calls.n).toBe(4);
  });

  it('is bounded in bytes and never keeps a reply larger than its entry bound', () => {
    const { calls, decode } = counting();
    const memo = memoiseDecoding(decode, { maxBytes: 300, maxEntryBytes: 200 });
    for (let i = 0; i < 10; i += 1) memo(reply(`t${i}`, 1, 100));
    expect(memo.size().bytes).toBeLessThanOrEqual(300);
    expect(memo.size().entries).toBe(2);
    const large = reply('big', 1, 500);
    memo(large);
    memo(large);
    expect(calls.n).toBe(12);
    expect(memo.size().bytes).toBeLessThanOrEqual(300);
  });
});
