import { describe, expect, it } from '@jest/globals';
import type { SuccessPlan } from '../plans/success-plan.js';
import { recompute } from '../state/recompute.js';
import {
  ALL_CAPABILITIES,
  dayAt,
  fact,
  isoAt,
  recomputeInput,
  upgradeOffer,
} from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { nextBestAction } from './next-best-action.js';

const traceUpgrade = upgradeOffer(
  'TRACEABILITY',
  { code: 'SUPPLIER_PLUS', name: 'Supplier Plus' },
  { code: 'CORE', name: 'Core' },
);

const plan = (keys: string[]): SuccessPlan => ({
  id: 'plan-1',
  title: 'Go live',
  targetDate: isoAt(90),
  status: 'ACTIVE',
  renewedFromId: null,
  objectives: [{ label: 'Publish our range', milestoneKeys: keys, met: false }],
  createdAt: isoAt(0),
  updatedAt: isoAt(0),
});

describe('nextBestAction', () => {
  it('proposes the profile for a brand-new tenant, because it unlocks the most', () => {
    const { state } = recompute(recomputeInput());
    const view = nextBestAction(state, { capabilities: [] });
    expect(view.nextBestAction).toMatchObject({ key: 'company_profile_completed', unlocks: 4 });
    expect(view.nextBestAction?.becauseOf).toBe(
      'Complete your company profile. It unlocks 4 steps right away (Hold the onboarding kickoff call, Invite a teammate, Create your first product and 1 more) and 14 steps in total. It moves you toward the CONNECTED rung.',
    );
    expect(view.available.map((m) => m.key)).toEqual(['company_profile_completed']);
    expect(view.locked).toHaveLength(27 - 4);
  });

  it('prefers what frees steps now, then started work, and explains it', () => {
    const { state } = recompute(WORKED_EXAMPLE);
    const view = nextBestAction(state, { capabilities: WORKED_EXAMPLE.capabilities });
    expect(view.nextBestAction).toMatchObject({ key: 'five_connections', unlocks: 1, status: 'IN_PROGRESS' });
    expect(view.nextBestAction?.becauseOf).toBe(
      'Connect with five partners. You have already started it. It unlocks 1 step right away (Grow your network to 10 partners).',
    );
  });

  it('never proposes a paid teaser the tier lacks, but lists it as available', () => {
    const { state } = recompute(WORKED_EXAMPLE);
    const view = nextBestAction(state, { capabilities: WORKED_EXAMPLE.capabilities });
    expect(view.nextBestAction?.requiredCapability).toBeNull();
    expect(view.available.map((m) => m.key)).toContain('first_trace_recorded');
  });

  it('lets an unmet success-plan objective decide between otherwise equal steps', () => {
    const { state } = recompute(WORKED_EXAMPLE);
    const settled = new Set([
      'five_connections',
      'catalogue_of_ten',
      'import_routine',
      'reliable_responder',
      'import_mapping_approved',
    ]);
    const narrowed = {
      ...state,
      milestones: state.milestones.map((m) => (settled.has(m.key) ? { ...m, status: 'DONE' as const } : m)),
    };
    const caps = WORKED_EXAMPLE.capabilities;
    expect(nextBestAction(narrowed, { capabilities: caps }).nextBestAction?.key).toBe(
      'sharing_policy_published',
    );
    const planned = nextBestAction(narrowed, {
      capabilities: caps,
      activePlan: plan(['first_integration_succeeded']),
    });
    expect(planned.nextBestAction?.key).toBe('first_integration_succeeded');
    expect(planned.nextBestAction?.becauseOf).toBe(
      'Run an API integration. It is part of your success-plan objective "Publish our range".',
    );
    const renewed = { ...plan(['first_integration_succeeded']), status: 'RENEWED' as const };
    expect(nextBestAction(narrowed, { capabilities: caps, activePlan: renewed }).nextBestAction?.key).toBe(
      'sharing_policy_published',
    );
  });

  it('offers the upgrade prompt of the first startable teaser once the tenant exchanges data', () => {
    const { state } = recompute({ ...WORKED_EXAMPLE, upgradeContexts: { TRACEABILITY: traceUpgrade } });
    expect(nextBestAction(state, { capabilities: WORKED_EXAMPLE.capabilities }).nextUpgradePrompt).toEqual(
      traceUpgrade,
    );
  });

  it('holds the upgrade prompt back before the tenant exchanges data', () => {
    const facts = [
      fact('company.profile_completed', 0),
      fact('product.created', 1),
      fact('product_version.published', 2),
    ];
    const { state } = recompute(
      recomputeInput({ facts, now: dayAt(3), upgradeContexts: { TRACEABILITY: traceUpgrade } }),
    );
    expect(state.currentMaturityRung).toBe('ONBOARDED');
    expect(nextBestAction(state, { capabilities: [] }).nextUpgradePrompt).toBeNull();
  });

  it('returns no action once everything the tier allows is done', () => {
    const { state } = recompute(recomputeInput({ now: dayAt(1) }));
    const done = {
      ...state,
      milestones: state.milestones.map((m) => ({ ...m, status: 'DONE' as const, lockedReasons: [] })),
    };
    const view = nextBestAction(done, { capabilities: ALL_CAPABILITIES });
    expect(view).toMatchObject({ nextBestAction: null, available: [], locked: [], nextUpgradePrompt: null });
  });

  it('breaks ties by chapter, then display order, so the answer never depends on input order', () => {
    const { state } = recompute(WORKED_EXAMPLE);
    const reversed = { ...state, milestones: [...state.milestones].reverse() };
    expect(nextBestAction(reversed, { capabilities: WORKED_EXAMPLE.capabilities }).nextBestAction?.key).toBe(
      'five_connections',
    );
  });
});
