import { describe, expect, it } from '@jest/globals';
import { exactBytes } from './exact-bytes.js';

describe('exactBytes', () => {
  it('copies a slice of the shared pool into memory of its own, byte for byte', () => {
    const pooled = Buffer.from('{"companyId":"t1"}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const own = exactBytes(pooled);
    expect(own.buffer.byteLength).toBe(pooled.length);
    expect(own.byteOffset).toBe(0);
    expect(own.equals(pooled)).toBe(true);
  });

  it('returns a Buffer that already owns exactly its memory as it is', () => {
    const own = Buffer.allocUnsafeSlow(16).fill(7);
    expect(exactBytes(own)).toBe(own);
  });

  it('keeps an empty Buffer empty', () => {
    expect(exactBytes(Buffer.alloc(0)).length).toBe(0);
  });
});
