/** The MongoDB (and FerretDB) server error code of a write that broke a unique index. */
export const DUPLICATE_KEY_CODE = 11_000;

/**
 * True when a driver error is a unique-index violation. Stores use it to turn a lost
 * insert race into a domain answer (EMAIL_TAKEN, "already recorded") instead of a 500. Matched on
 * the code alone, so this package needs no driver.
 */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === DUPLICATE_KEY_CODE;
}
