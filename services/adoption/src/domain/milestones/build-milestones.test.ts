import { describe, expect, it } from '@jest/globals';
import type { Milestone } from '../state/adoption-state.js';
import { recompute } from '../state/recompute.js';
import {
  ALL_CAPABILITIES,
  completion,
  dayAt,
  fact,
  recomputeInput,
  upgradeOffer,
} from '../testing/fact-builders.js';
import type { EventFact } from '../facts/facts.js';

function milestonesOf(
  facts: EventFact[],
  overrides: Parameters<typeof recomputeInput>[0] = {},
): Map<string, Milestone> {
  const { state } = recompute(recomputeInput({ facts, now: dayAt(10), ...overrides }));
  return new Map(state.milestones.map((m) => [m.key, m]));
}

const upgrade = upgradeOffer(
  'BULK_UPLOAD',
  { code: 'SUPPLIER_FREE', name: 'Supplier Free' },
  { code: 'SUPPLIER_PLUS', name: 'Supplier Plus' },
);

describe('milestone statuses', () => {
  it('lists every catalogue milestone in display order, the first available and the rest locked', () => {
    const { state } = recompute(recomputeInput());
    const orders = state.milestones.map((m) => m.displayOrder);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(state.milestones[0]).toMatchObject({
      key: 'company_profile_completed',
      status: 'AVAILABLE',
      lockedReasons: [],
    });
    expect(state.milestones.find((m) => m.key === 'first_product_created')).toMatchObject({
      status: 'LOCKED',
      lockedReasons: [{ unmetDependencyKey: 'company_profile_completed' }],
    });
  });

  it('completes the first product milestone on product.created, with the event time', () => {
    const m = milestonesOf([fact('company.profile_completed', 1), fact('product.created', 2)]);
    expect(m.get('first_product_created')).toMatchObject({
      status: 'DONE',
      completedAt: '2025-01-03T00:00:00.000Z',
    });
    expect(m.get('first_version_published')?.status).toBe('AVAILABLE');
  });

  it('names each unmet dependency of a locked milestone', () => {
    const m = milestonesOf([fact('company.profile_completed', 1)]);
    expect(m.get('first_data_exchange')?.lockedReasons).toEqual([
      { unmetDependencyKey: 'first_product_created' },
      { unmetDependencyKey: 'first_connection_made' },
    ]);
  });

  it('shows IN_PROGRESS once a start event or part of a count is seen', () => {
    const m = milestonesOf([
      fact('company.profile_completed', 1),
      fact('connection.invited', 2, { connectionId: 'c1' }),
      fact('product.created', 2, { productId: 'p1' }),
      fact('product.created', 3, { productId: 'p2' }),
    ]);
    expect(m.get('first_connection_made')?.status).toBe('IN_PROGRESS');
    expect(m.get('catalogue_of_ten')?.status).toBe('IN_PROGRESS');
  });

  it('completes a counted milestone at the target-th trigger', () => {
    const products = Array.from({ length: 10 }, (_, i) =>
      fact('product.created', i + 1, { productId: `p${i}` }),
    );
    const m = milestonesOf([fact('company.profile_completed', 0), ...products]);
    expect(m.get('catalogue_of_ten')).toMatchObject({
      status: 'DONE',
      completedAt: '2025-01-11T00:00:00.000Z',
    });
  });

  it('marks milestones of the other profile NOT_APPLICABLE without blocking their dependants', () => {
    const m = milestonesOf([
      fact('company.profile_completed', 1),
      fact('connection.accepted', 2, { connectionId: 'c1' }),
    ]);
    expect(m.get('first_data_request_sent')).toMatchObject({ status: 'NOT_APPLICABLE', lockedReasons: [] });
    expect(m.get('first_data_request_answered')?.status).toBe('AVAILABLE');
    const svc = milestonesOf([fact('company.profile_completed', 1), fact('connection.accepted', 2)], {
      profile: 'SVC',
    });
    expect(svc.get('first_data_request_answered')?.lockedReasons).toEqual([
      { unmetDependencyKey: 'first_data_request_sent' },
    ]);
    expect(svc.get('reliable_responder')?.status).toBe('NOT_APPLICABLE');
  });

  it('shows a milestone of the other path NOT_APPLICABLE even when the log holds its trigger', () => {
    const m = milestonesOf([fact('data_request.sent', 1, { requestId: 'r1' })]);
    expect(m.get('first_data_request_sent')).toMatchObject({ status: 'NOT_APPLICABLE', completedAt: null });
  });

  it('completes an event-detected milestone even when its trigger arrives before its dependencies', () => {
    const m = milestonesOf([fact('product.viewed', 1, { productId: 'p1' })]);
    expect(m.get('first_data_exchange')).toMatchObject({ status: 'DONE', lockedReasons: [] });
  });

  it('never undoes a DONE milestone when the product is archived', () => {
    const m = milestonesOf([
      fact('product.created', 1, { productId: 'p1' }),
      fact('product.archived', 2, { productId: 'p1' }),
    ]);
    expect(m.get('first_product_created')?.status).toBe('DONE');
  });

  it('completes manual milestones from completions, not from events', () => {
    const m = milestonesOf([fact('company.profile_completed', 1)], {
      manualCompletions: [completion('kickoff_call_held', 2, 'call-notes-1')],
    });
    expect(m.get('kickoff_call_held')).toMatchObject({
      status: 'DONE',
      completionMode: 'MANUAL',
      triggerEvent: 'milestone.completed',
    });
  });

  it('attaches the supplied upgrade context only to paid teasers the tier lacks and that are not done', () => {
    const facts = [fact('company.profile_completed', 1), fact('product.created', 2)];
    const free = milestonesOf(facts, { upgradeContexts: { BULK_UPLOAD: upgrade } });
    expect(free.get('first_import_completed')).toMatchObject({
      paidTeaser: true,
      requiredCapability: 'BULK_UPLOAD',
      upgradeContext: upgrade,
    });
    expect(free.get('first_integration_succeeded')?.upgradeContext).toBeNull();
    const paid = milestonesOf(facts, {
      capabilities: ALL_CAPABILITIES,
      upgradeContexts: { BULK_UPLOAD: upgrade },
    });
    expect(paid.get('first_import_completed')).toMatchObject({ paidTeaser: true, upgradeContext: null });
  });
});
