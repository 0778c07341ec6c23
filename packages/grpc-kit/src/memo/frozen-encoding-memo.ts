import { exactBytes } from './exact-bytes.js';

/**
 * Wraps a message serializer so that a frozen message (a handler's memoised answer, shared by
 * the calls that asked the same question) is encoded once and its bytes reused; any other value
 * is encoded every time. Only frozen values qualify because a value that can still change could
 * otherwise be sent with the bytes of what it was before. Held weakly: the bytes live as long as
 * the handler's memo keeps the message, and in memory of their own (exact-bytes.ts), not as a
 * slice that keeps a 64 KiB pool slab alive per tenant.
 */
export function memoiseFrozenEncoding<T>(serialize: (value: T) => Buffer): (value: T) => Buffer {
  const encoded = new WeakMap<object, Buffer>();
  return (value) => {
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return serialize(value);
    const known = encoded.get(value);
    if (known) return known;
    const bytes = exactBytes(serialize(value));
    encoded.set(value, bytes);
    return bytes;
  };
}
