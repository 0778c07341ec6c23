import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/*
 * TypeBox helpers for the shapes plain TypeBox would write differently from the documented
 * interface: the document keeps `type: [T, 'null']` and open maps (`additionalProperties`) exactly
 * as before, and the TypeScript type still follows from the schema.
 */

/** `{ type: [<type>, 'null'] }`: a value of `inner`'s JSON type, or null. */
export function Nullable<T extends TSchema & { type: string }>(inner: T) {
  return Type.Unsafe<Static<T> | null>({ ...inner, type: [inner.type, 'null'] });
}

/**
 * An object used as a map to `value` (`additionalProperties: <value>`), from any key or, given
 * `keys`, from those only (`propertyNames`).
 */
export function MapOf<T extends TSchema>(value: T): TUnsafe<Record<string, Static<T>>>;
export function MapOf<const K extends readonly string[], T extends TSchema>(
  keys: K,
  value: T,
): TUnsafe<Partial<Record<K[number], Static<T>>>>;
export function MapOf(first: TSchema | readonly string[], second?: TSchema): TUnsafe<unknown> {
  if (second === undefined) return Type.Unsafe({ type: 'object', additionalProperties: first });
  const keys = first as readonly string[];
  return Type.Unsafe({ type: 'object', propertyNames: { enum: [...keys] }, additionalProperties: second });
}

/** The spec's success envelope `{ success: true, data }` around `data`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data });
}

/**
 * One of a fixed list of strings (the document's `enum`), typed as the list's union: for
 * requests, which the schema refuses outside the list. The lists come from @tap/contracts, which
 * the services' rules read too.
 */
export function OneOf<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options }) as TUnsafe<T[number]> & {
    type: 'string';
  };
}

/**
 * An answer's string with the document's `enum` of the values it takes, typed `string`: the
 * handlers copy gRPC messages, whose fields are plain strings, and the service's rule is what
 * holds the value to the list (the fuzz gate's response-schema check sees any other).
 */
export function EnumText<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<string>({ type: 'string', enum: [...values] }) as TUnsafe<string> & { type: 'string' };
}

/**
 * A pattern for text the services trim before they count it: some character that is not blank.
 * U+FEFF is named because JavaScript trims it while other regex dialects (a fuzzer's) do not
 * count it as a space.
 */
export const NOT_BLANK = '[^\\s\\ufeff]';
