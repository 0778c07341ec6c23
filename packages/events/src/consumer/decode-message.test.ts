import { describe, expect, it } from '@jest/globals';
import { decodeMessage } from './decode-message.js';

const tenantId = '0e7f1f0c-3c8b-4b0e-8d53-6b8d2f7d9a10';
const event = {
  id: '5b0c3c1e-8a59-4a5e-9a55-0f5d7e1f2a01',
  type: 'product.created',
  tenantId,
  occurredAt: '2026-11-21T08:00:00.000Z',
  subject: { productId: 'p-1' },
  data: {},
};
const bytes = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
const subject = `events.${tenantId}.product.created`;

describe('decodeMessage', () => {
  it('accepts a valid event published on its own subject', () => {
    expect(decodeMessage(subject, bytes(event), 'events')).toEqual({ ok: true, event });
  });

  it('calls a payload that is not JSON malformed', () => {
    const decoded = decodeMessage(subject, new TextEncoder().encode('{"id":'), 'events');
    expect(decoded).toMatchObject({ ok: false, reason: 'MALFORMED_JSON' });
  });

  it('calls bytes that are not UTF-8 malformed', () => {
    expect(decodeMessage(subject, new Uint8Array([0xff, 0xfe]), 'events')).toMatchObject({
      ok: false,
      reason: 'MALFORMED_JSON',
    });
  });

  it('rejects JSON that breaks the contract, with the schema errors', () => {
    const decoded = decodeMessage(subject, bytes({ ...event, subject: {} }), 'events');
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.reason).toBe('INVALID_EVENT');
    expect(decoded.errors.length).toBeGreaterThan(0);
  });

  it("rejects an event published on another tenant's subject", () => {
    const other = `events.6f1d1f0c-3c8b-4b0e-8d53-6b8d2f7d9a10.product.created`;
    expect(decodeMessage(other, bytes(event), 'events')).toMatchObject({
      ok: false,
      reason: 'SUBJECT_MISMATCH',
    });
  });

  it('rejects an event published under the subject of another kind', () => {
    const other = `events.${tenantId}.product.updated`;
    expect(decodeMessage(other, bytes(event), 'events')).toMatchObject({
      ok: false,
      reason: 'SUBJECT_MISMATCH',
    });
  });
});
