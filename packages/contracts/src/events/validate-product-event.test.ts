import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { PRODUCT_EVENT_KINDS, PRODUCT_EVENT_SCHEMA_PATH, eventSubject, parseProductEvent } from '../index.js';

const valid = {
  id: '5b0c3c1e-8a59-4a5e-9a55-0f5d7e1f2a01',
  type: 'product.created',
  tenantId: '0e7f1f0c-3c8b-4b0e-8d53-6b8d2f7d9a10',
  occurredAt: '2026-11-21T08:00:00.000Z',
  subject: { productId: 'p-1' },
  data: {},
};

describe('the product-event contract', () => {
  it('lists in TypeScript exactly the kinds of the JSON Schema', () => {
    const schema = JSON.parse(readFileSync(PRODUCT_EVENT_SCHEMA_PATH, 'utf8')) as {
      properties: { type: { enum: string[] } };
    };
    expect([...PRODUCT_EVENT_KINDS].sort()).toEqual([...schema.properties.type.enum].sort());
  });

  it('accepts a well-formed event', () => {
    expect(parseProductEvent(valid)).toEqual({ ok: true, event: valid });
  });

  it.each([
    ['an unknown kind', { ...valid, type: 'product.exploded' }],
    ['a tenant id that is not a UUID', { ...valid, tenantId: 'acme' }],
    ['a missing subject ref the kind requires', { ...valid, subject: {} }],
    ['a timestamp that is not one', { ...valid, occurredAt: 'yesterday' }],
    ['an extra envelope field', { ...valid, extra: 1 }],
    [
      'import rows that are negative',
      { ...valid, type: 'import.completed', subject: { importId: 'i' }, data: { rows: -1 } },
    ],
    ['a value that is not an object', 'product.created'],
  ])('rejects %s', (_label, value) => {
    const parsed = parseProductEvent(value);
    expect(parsed.ok).toBe(false);
  });

  it('puts each event on events.<tenantId>.<kind>', () => {
    expect(eventSubject(valid.tenantId, 'product.viewed')).toBe(`events.${valid.tenantId}.product.viewed`);
  });
});
