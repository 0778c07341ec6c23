/**
 * A copy of a response schema in which every object that lists its `properties` and says
 * nothing about others gets `additionalProperties: false`. That is what the route answers:
 * Fastify's serializer (fast-json-stringify) writes the listed properties only, so the document
 * may promise no others. Maps (`additionalProperties: {...}`) and open objects are left alone.
 */
export function closedObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isRecord(value)) {
      // A map from names to schemas, not a schema: a property called "properties" stays one.
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, closedObjects(sub)]));
    } else {
      // `headers` of a response, `examples` and `const` hold data, not schemas.
      copy[key] = key === 'headers' || key === 'examples' || key === 'const' ? value : closedObjects(value);
    }
  }
  if (isRecord(copy['properties']) && !('additionalProperties' in copy)) copy['additionalProperties'] = false;
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
