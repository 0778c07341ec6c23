import { describe, expect, it } from '@jest/globals';
import { closedObjects } from './closed-objects.js';

describe('closedObjects', () => {
  it('closes objects with listed properties, at any depth, and leaves maps, open objects and data alone', () => {
    const schema = {
      type: 'object',
      properties: {
        data: { anyOf: [{ type: 'null' }, { type: 'object', properties: { id: { type: 'string' } } }] },
        refs: { type: 'object', additionalProperties: { type: 'string' } },
        open: { type: 'object' },
        fixed: { const: { properties: 1 } },
        properties: { type: 'string' },
      },
      examples: [{ properties: {} }],
    };
    expect(closedObjects(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        data: {
          anyOf: [
            { type: 'null' },
            { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } },
          ],
        },
        refs: { type: 'object', additionalProperties: { type: 'string' } },
        open: { type: 'object' },
        fixed: { const: { properties: 1 } },
        properties: { type: 'string' },
      },
      examples: [{ properties: {} }],
    });
    expect(schema.properties.data.anyOf[1]).not.toHaveProperty('additionalProperties');
  });
});
