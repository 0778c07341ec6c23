/** MongoDB's duplicate-key error code (FerretDB answers the same). */
const DUPLICATE_KEY = 11_000;

/** True when a write failed because a unique index (or `_id`) already holds the key. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === DUPLICATE_KEY;
}
