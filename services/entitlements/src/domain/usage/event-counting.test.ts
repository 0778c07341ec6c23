import { describe, expect, it } from '@jest/globals';
import { COUNTED_EVENT_TYPES, usageDeltasFor } from './event-counting.js';
import type { UsageEvent } from './event-counting.js';

const withCode = (code: string) => expect.objectContaining({ code });

function event(type: string, overrides: Partial<UsageEvent> = {}): UsageEvent {
  return {
    id: '7f4f8d0e-0000-4000-8000-000000000001',
    type,
    tenantId: '7f4f8d0e-0000-4000-8000-0000000000aa',
    occurredAt: '2026-11-30T23:59:59.000Z',
    subject: { productId: 'p-1', connectionId: 'c-1', userId: 'u-1', importId: 'i-1' },
    data: {},
    ...overrides,
  };
}

describe('usage counting from product events', () => {
  it.each([
    ['product.created', 'MAX_ACTIVE_PRODUCTS', 1],
    ['connection.accepted', 'MAX_CONNECTIONS', 1],
    ['connection.removed', 'MAX_CONNECTIONS', -1],
  ])('moves the gauge for %s: %s by %i', (type, counter, delta) => {
    expect(usageDeltasFor(event(type))).toEqual([{ counter, delta }]);
  });

  it('counts a traced product once per product, through a distinct guard on its id', () => {
    expect(usageDeltasFor(event('trace.recorded'))).toEqual([
      {
        counter: 'MAX_TRACED_PRODUCTS',
        delta: 1,
        distinct: { set: 'TRACED_PRODUCTS', member: 'p-1', op: 'ADD' },
      },
    ]);
  });

  it('frees an archived product and its traceability slot, if it had one', () => {
    expect(usageDeltasFor(event('product.archived'))).toEqual([
      { counter: 'MAX_ACTIVE_PRODUCTS', delta: -1 },
      {
        counter: 'MAX_TRACED_PRODUCTS',
        delta: -1,
        distinct: { set: 'TRACED_PRODUCTS', member: 'p-1', op: 'REMOVE' },
      },
    ]);
  });

  it('adds imported rows to the month the import happened in, not the month it is processed', () => {
    expect(usageDeltasFor(event('import.completed', { data: { rows: 1_234 } }))).toEqual([
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 1_234 },
    ]);
  });

  it('counts nothing for an empty import', () => {
    expect(usageDeltasFor(event('import.completed', { data: { rows: 0 } }))).toEqual([]);
  });

  it('carries the reservation an event settles, even for an empty import', () => {
    const settled = event('import.completed', { data: { rows: 0, reservationKey: 'imp-42' } });
    expect(usageDeltasFor(settled)).toEqual([
      { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 0, reservationKey: 'imp-42' },
    ]);
    const created = event('product.created', { data: { reservationKey: 'res-1' } });
    expect(usageDeltasFor(created)).toEqual([
      { counter: 'MAX_ACTIVE_PRODUCTS', delta: 1, reservationKey: 'res-1' },
    ]);
  });

  it.each([
    'product.updated',
    'product.viewed',
    'connection.invited',
    'user.invited',
    'import.failed',
    'made.up',
  ])('counts nothing for %s', (type) => {
    expect(usageDeltasFor(event(type, { occurredAt: 'garbage' }))).toEqual([]);
  });

  it('lists the kinds that count', () => {
    expect([...COUNTED_EVENT_TYPES].sort()).toEqual([
      'connection.accepted',
      'connection.removed',
      'import.completed',
      'product.archived',
      'product.created',
      'trace.recorded',
    ]);
  });

  it('counts no user event: MAX_USERS is the seat ledger alone', () => {
    expect(usageDeltasFor(event('user.joined'))).toEqual([]);
    expect(usageDeltasFor(event('user.removed'))).toEqual([]);
  });

  it.each([
    ['import.completed', { data: {} }],
    ['import.completed', { data: { rows: -1 } }],
    ['import.completed', { data: { rows: 2.5 } }],
    ['import.completed', { data: { rows: '10' } }],
    ['trace.recorded', { subject: {} }],
    ['trace.recorded', { subject: { productId: '' } }],
    ['product.archived', { subject: {} }],
    ['product.created', { occurredAt: 'not-a-time' }],
    ['product.created', { data: { reservationKey: 'has.dot' } }],
    ['product.created', { data: { reservationKey: 42 } }],
  ] as const)('rejects a malformed %s as INVALID_EVENT (%j)', (type, overrides) => {
    expect(() => usageDeltasFor(event(type, overrides))).toThrow(withCode('INVALID_EVENT'));
  });
});
