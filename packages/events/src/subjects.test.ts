import { describe, expect, it } from '@jest/globals';
import { deadLetterSubject, eventKindFilter, kindOfSubject, tenantEventsFilter } from './subjects.js';

const tenantId = '0e7f1f0c-3c8b-4b0e-8d53-6b8d2f7d9a10';

describe('event subjects', () => {
  it('filters one kind across every tenant', () => {
    expect(eventKindFilter('import.completed', 'events')).toBe('events.*.import.completed');
  });

  it("filters every kind of one tenant's events", () => {
    expect(tenantEventsFilter(tenantId, 'events')).toBe(`events.${tenantId}.>`);
  });

  it('puts dead letters outside the events prefix, one subject per durable consumer', () => {
    expect(deadLetterSubject('adoption-milestones')).toBe('deadletter.adoption-milestones');
  });

  it('reads the kind back from an event subject, dots included', () => {
    expect(kindOfSubject(`events.${tenantId}.product_version.published`, 'events')).toBe(
      'product_version.published',
    );
  });

  it('reads no kind from a subject outside the prefix or naming an unknown kind', () => {
    expect(kindOfSubject(`other.${tenantId}.product.created`, 'events')).toBeUndefined();
    expect(kindOfSubject(`events.${tenantId}.product.exploded`, 'events')).toBeUndefined();
    expect(kindOfSubject(`events.${tenantId}`, 'events')).toBeUndefined();
  });
});
