import { describe, expect, it } from '@jest/globals';
import { upgradeContextFromWire, upgradeContextToWire, type UpgradeContextView } from './upgrade-context.js';

const offer: UpgradeContextView = {
  capability: 'TRACEABILITY',
  frictionType: 'CAPABILITY',
  upgradeAvailable: true,
  currentTier: { code: 'CORE', name: 'Core' },
  targetTier: { code: 'PLUS', name: 'Plus' },
  headline: 'Trace every product',
  featureHighlights: ['Traceability links'],
  cta: 'Upgrade to Plus',
};

describe('the upgrade-context mapping', () => {
  it('comes back from the wire as it went in', () => {
    const wire = upgradeContextToWire(offer);
    const received = { ...wire, targetTier: wire.targetTier ?? null, currentTier: wire.currentTier ?? null };
    expect(upgradeContextFromWire(received as Parameters<typeof upgradeContextFromWire>[0])).toEqual(offer);
  });

  it('never shows a target tier when no upgrade is available, whatever the sender put there', () => {
    const none = { ...offer, upgradeAvailable: false };
    expect(upgradeContextToWire(none)).not.toHaveProperty('targetTier');
    const wire = {
      ...upgradeContextToWire(offer),
      upgradeAvailable: false,
      currentTier: { code: 'CORE', name: 'Core' },
      targetTier: { code: 'PLUS', name: 'Plus' },
    };
    expect(upgradeContextFromWire(wire as Parameters<typeof upgradeContextFromWire>[0])).not.toHaveProperty(
      'targetTier',
    );
  });

  it('gives a context without a current tier on the wire an empty one rather than null', () => {
    const wire = { ...upgradeContextToWire(offer), currentTier: null, targetTier: null };
    expect(upgradeContextFromWire(wire as Parameters<typeof upgradeContextFromWire>[0]).currentTier).toEqual({
      code: '',
      name: '',
    });
  });
});
