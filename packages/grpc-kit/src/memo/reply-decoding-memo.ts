import { crc32 } from 'node:zlib';
import { deepFreeze } from './deep-freeze.js';

/** Bounds of one method's memo of decoded replies. */
export interface ReplyMemoBounds {
  /** Most replies kept per method (least recently used out first). Default 512. */
  readonly maxEntries?: number;
  /** Most reply bytes kept per method. Default 4 MiB. */
  readonly maxBytes?: number;
  /** Replies larger than this are decoded every time and never kept. Default 64 KiB. */
  readonly maxEntryBytes?: number;
}

export const DEFAULT_REPLY_MEMO_MAX_ENTRIES = 512;
export const DEFAULT_REPLY_MEMO_MAX_BYTES = 4 * 1024 * 1024;
export const DEFAULT_REPLY_MEMO_MAX_ENTRY_BYTES = 64 * 1024;

interface Entry<T> {
  readonly bytes: Buffer;
  readonly value: T;
}

/**
 * Wraps a reply deserializer so that a reply whose bytes equal a recent one's returns that
 * reply's decoded object, deep-frozen, instead of decoding again. The lookup is keyed by the
 * bytes' CRC-32 and length and always confirmed by comparing the bytes, so a hit is exactly
 * "the same bytes": the decoded object is a function of the bytes alone, and a reply of another
 * tenant, or a newer one of the same tenant, has other bytes and decodes anew. Returned objects
 * are shared by every caller that received the same bytes: they are frozen (deepFreeze).
 */
export function memoiseDecoding<T>(
  deserialize: (bytes: Buffer) => T,
  bounds: ReplyMemoBounds = {},
): DecodingMemo<T> {
  const maxEntries = bounds.maxEntries ?? DEFAULT_REPLY_MEMO_MAX_ENTRIES;
  const maxBytes = bounds.maxBytes ?? DEFAULT_REPLY_MEMO_MAX_BYTES;
  const maxEntryBytes = Math.min(bounds.maxEntryBytes ?? DEFAULT_REPLY_MEMO_MAX_ENTRY_BYTES, maxBytes);
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recent.
  const entries = new Map<number, Entry<T>>();
  let heldBytes = 0;
  const drop = (key: number, entry: Entry<T>): void => {
    entries.delete(key);
    heldBytes -= entry.bytes.length;
  };
  const decode = (bytes: Buffer): T => {
    if (bytes.length > maxEntryBytes || maxEntries < 1) return deserialize(bytes);
    // CRC-32 times 2^20 plus the length's low 20 bits stays below 2^53 (an exact number); a
    // collision only costs a decode, since a hit is confirmed by the bytes.
    const key = crc32(bytes) * 0x100000 + (bytes.length & 0xfffff);
    const found = entries.get(key);
    if (found && found.bytes.equals(bytes)) {
      entries.delete(key);
      entries.set(key, found);
      return found.value;
    }
    const value = deepFreeze(deserialize(bytes));
    if (found) drop(key, found);
    // A copy: the received buffer may be a view of one the transport reuses.
    const entry = { bytes: Buffer.from(bytes), value };
    entries.set(key, entry);
    heldBytes += entry.bytes.length;
    for (const [oldest, old] of entries) {
      if (entries.size <= maxEntries && heldBytes <= maxBytes) break;
      drop(oldest, old);
    }
    return value;
  };
  return Object.assign(decode, { size: () => ({ entries: entries.size, bytes: heldBytes }) });
}

/** A memoised deserializer, and what it holds now (entries and bytes of the kept replies). */
export interface DecodingMemo<T> {
  (bytes: Buffer): T;
  size(): { readonly entries: number; readonly bytes: number };
}
