/**
 * `bytes` in memory of their own. Node hands out small Buffers as slices of a shared pool slab
 * (`Buffer.poolSize`, 64 KiB on Node 24), and one slice kept alive keeps its whole slab alive: a
 * memo of many small answers, each kept for as long as its tenant's data is unchanged, would hold
 * a slab per answer rather than the answer's few kilobytes. What is kept for long is copied out;
 * a Buffer that already owns exactly its memory is returned as it is.
 */
export function exactBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}
