import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { Binary } from 'mongodb';

/**
 * A value stored as one deflated JSON `Binary`. FerretDB converts and rewrites a document value by
 * value, so a structure of many small values costs far more than the same content as one value
 * (docs/foundation.md, "FerretDB's limits"); adoption packs what it only ever reads whole.
 */
export function packJson(value: unknown): Binary {
  return new Binary(deflateRawSync(JSON.stringify(value), { level: constants.Z_BEST_SPEED }));
}

/** The value `packJson` stored. */
export function unpackJson(packed: Binary): unknown {
  return JSON.parse(inflateRawSync(packed.buffer).toString('utf8'));
}

/** Whether a stored value is a packed one (a document written before holds the structure itself). */
export function isPacked(value: unknown): value is Binary {
  return value instanceof Binary || (value as { _bsontype?: unknown } | null)?._bsontype === 'Binary';
}
