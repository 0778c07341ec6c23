/** MongoDB's (and FerretDB's) duplicate-key error code: a unique index refused the write. */
export const DUPLICATE_KEY = 11_000;

/** True for the error of an insert that a unique index refused. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === DUPLICATE_KEY;
}
