/**
 * Freezes a decoded or built message and everything it holds (plain objects and arrays), so that
 * an answer shared by several requests cannot be changed by one of them: a write throws instead
 * of leaking into the next caller's answer. Byte arrays (`bytes` fields) cannot be frozen and are
 * left as they are; messages here carry none that a memo shares.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (ArrayBuffer.isView(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
