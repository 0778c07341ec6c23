import { describe, expect, it } from '@jest/globals';
import { nameBasedUuid, riskSignalId, subjectKey } from './signal-id.js';

describe('risk signal ids', () => {
  it('are RFC version-5 UUIDs (checked against the published DNS-namespace vector)', () => {
    expect(nameBasedUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'python.org')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  it('are the same for the same tenant, kind and subject, whatever the key order', () => {
    const a = riskSignalId('t-1', 'CASCADE_STALLED', { cascadeId: 'k1', connectionId: 'c1' });
    const b = riskSignalId('t-1', 'CASCADE_STALLED', { connectionId: 'c1', cascadeId: 'k1' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(subjectKey({ b: '2', a: '1' })).toBe('a=1&b=2');
  });

  it('differ across tenants, kinds and subjects', () => {
    const base = riskSignalId('t-1', 'REQUEST_UNANSWERED', { requestId: 'r1' });
    expect(riskSignalId('t-2', 'REQUEST_UNANSWERED', { requestId: 'r1' })).not.toBe(base);
    expect(riskSignalId('t-1', 'DATA_STALE', { requestId: 'r1' })).not.toBe(base);
    expect(riskSignalId('t-1', 'REQUEST_UNANSWERED', { requestId: 'r2' })).not.toBe(base);
  });

  it('refuse a namespace that is not a UUID', () => {
    expect(() => nameBasedUuid('not-a-uuid', 'x')).toThrow(TypeError);
  });
});
