import { Type, type Static, type TSchema } from '@sinclair/typebox';

/*
 * TypeBox helpers for the shapes plain TypeBox would write differently from the documented
 * interface: the document keeps `type: [T, 'null']` and open maps (`additionalProperties`) exactly
 * as before, and the TypeScript type still follows from the schema.
 */

/** `{ type: [<type>, 'null'] }`: a value of `inner`'s JSON type, or null. */
export function Nullable<T extends TSchema & { type: string }>(inner: T) {
  return Type.Unsafe<Static<T> | null>({ ...inner, type: [inner.type, 'null'] });
}

/** An object used as a map from any key to `value` (`additionalProperties: <value>`). */
export function MapOf<T extends TSchema>(value: T) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value });
}

/** The spec's success envelope `{ success: true, data }` around `data`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data });
}
