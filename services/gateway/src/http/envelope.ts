/** The spec's success envelope. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

// Its schema is `Envelope` (typebox.ts).
