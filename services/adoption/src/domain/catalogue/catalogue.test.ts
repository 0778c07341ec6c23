import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { RUNG_GATES } from '../state/maturity-rung.js';
import { CAPABILITY_KEYS } from './capabilities.js';
import { MILESTONE_DEFINITIONS } from './catalogue-data.js';
import { CATALOGUE_VERSION, findDefinition, isKnownForProfile } from './catalogue.js';
import { EVENT_KINDS, MILESTONE_COMPLETED_EVENT } from './event-kinds.js';
import { PATH_PROFILES } from './milestone-definition.js';

const keys = MILESTONE_DEFINITIONS.map((d) => d.key);

/** sha256 of the JSON of MILESTONE_DEFINITIONS, per catalogue version. */
const FINGERPRINTS: Readonly<Record<number, string>> = {
  1: '6e19c72c7aaab3a04f9a5335404d1a54b584fe5a444a72e942f5be061bd41276',
};

describe('the milestone catalogue', () => {
  it('changes only with a new CATALOGUE_VERSION (stored states name the version they were computed with)', () => {
    // Edit a definition, reorder or add one, and this fails until CATALOGUE_VERSION is bumped
    // and the new version's fingerprint recorded here.
    const fingerprint = createHash('sha256').update(JSON.stringify(MILESTONE_DEFINITIONS)).digest('hex');
    expect({ version: CATALOGUE_VERSION, fingerprint }).toEqual({
      version: CATALOGUE_VERSION,
      fingerprint: FINGERPRINTS[CATALOGUE_VERSION],
    });
  });

  it('has unique snake_case keys and strictly increasing display orders', () => {
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    const orders = MILESTONE_DEFINITIONS.map((d) => d.displayOrder);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(new Set(orders).size).toBe(orders.length);
  });

  it('covers all seven chapters for both profiles, in chapter order', () => {
    for (const profile of PATH_PROFILES) {
      const chapters = new Set(
        MILESTONE_DEFINITIONS.filter((d) => d.profiles.includes(profile)).map((d) => d.chapter),
      );
      expect([...chapters].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    }
    const chapters = MILESTONE_DEFINITIONS.map((d) => d.chapter);
    expect(chapters).toEqual([...chapters].sort((a, b) => a - b));
  });

  it('only depends on milestones listed earlier, so the graph has no cycle', () => {
    for (const [index, definition] of MILESTONE_DEFINITIONS.entries()) {
      for (const dependency of definition.dependsOn) {
        expect(keys.slice(0, index)).toContain(dependency);
      }
    }
  });

  it('triggers on known event kinds, manual milestones on milestone.completed', () => {
    for (const definition of MILESTONE_DEFINITIONS) {
      expect(EVENT_KINDS).toContain(definition.triggerEvent);
      expect(definition.completionMode === 'MANUAL').toBe(
        definition.triggerEvent === MILESTONE_COMPLETED_EVENT,
      );
      if (definition.startEvent !== null) {
        expect(EVENT_KINDS).toContain(definition.startEvent);
        expect(definition.startEvent).not.toBe(definition.triggerEvent);
      }
      expect(Number.isInteger(definition.targetCount) && definition.targetCount >= 1).toBe(true);
    }
  });

  it('completes the first-product milestone on product.created and first data exchange on product.viewed', () => {
    expect(findDefinition('first_product_created')?.triggerEvent).toBe('product.created');
    expect(findDefinition('first_data_exchange')?.triggerEvent).toBe('product.viewed');
  });

  it('keeps manual milestones few', () => {
    const manual = MILESTONE_DEFINITIONS.filter((d) => d.completionMode === 'MANUAL');
    expect(manual.length).toBeGreaterThan(0);
    expect(manual.length).toBeLessThanOrEqual(3);
  });

  it('marks a milestone as a paid teaser exactly when it requires a capability, and uses every capability', () => {
    for (const definition of MILESTONE_DEFINITIONS) {
      expect(definition.paidTeaser).toBe(definition.requiredCapability !== null);
    }
    const used = new Set(MILESTONE_DEFINITIONS.map((d) => d.requiredCapability));
    for (const capability of CAPABILITY_KEYS) expect(used).toContain(capability);
  });

  it('has milestones that do not apply to one of the profiles', () => {
    for (const profile of PATH_PROFILES) {
      expect(MILESTONE_DEFINITIONS.some((d) => !d.profiles.includes(profile))).toBe(true);
    }
    expect(isKnownForProfile('first_data_request_sent', 'SVC')).toBe(true);
    expect(isKnownForProfile('first_data_request_sent', 'SUPPLIER')).toBe(false);
    expect(isKnownForProfile('no_such_milestone', 'SVC')).toBe(false);
  });

  it('gives every rung gate at least one milestone that applies to each profile', () => {
    for (const gate of Object.values(RUNG_GATES)) {
      for (const profile of PATH_PROFILES) {
        expect(gate.some((key) => isKnownForProfile(key, profile))).toBe(true);
      }
    }
  });

  it('is frozen so no caller can change it at run time', () => {
    expect(Object.isFrozen(MILESTONE_DEFINITIONS)).toBe(true);
    expect(Object.isFrozen(MILESTONE_DEFINITIONS[0])).toBe(true);
  });
});
