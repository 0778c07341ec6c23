/** `T` with each of `Optional` null where absent and each of `Empty` null where empty. */
export type WireJson<T, Optional extends keyof T = never, Empty extends keyof T = never> = Omit<
  T,
  Optional | Empty
> & { [P in Optional]-?: Exclude<T[P], undefined> | null } & { [P in Empty]-?: T[P] | null };

/**
 * A decoded wire message as the API's JSON. proto-loader hands each message over as a plain
 * object whose fields already carry the API's names and JSON types (the contracts' loader
 * options: camelCase, longs as numbers, enums as strings, defaults filled in), and each route's
 * response schema serialises only the fields it documents; so the JSON is the message itself,
 * but for what the wire cannot say: an `optional` field left out is null (`optional`), and so is
 * a field the wire leaves at its default where the API says "none" (`empty`: '' or 0).
 * One mapping for every message instead of a hand-written list of its fields per endpoint.
 */
export function wireJson<
  T extends object,
  const Optional extends keyof T = never,
  const Empty extends keyof T = never,
>(wire: T, optional: readonly Optional[] = [], empty: readonly Empty[] = []): WireJson<T, Optional, Empty> {
  const json: Record<PropertyKey, unknown> = { ...(wire as Record<PropertyKey, unknown>) };
  for (const key of optional) json[key] = wire[key] ?? null;
  for (const key of empty) json[key] = wire[key] || null;
  return json as WireJson<T, Optional, Empty>;
}
