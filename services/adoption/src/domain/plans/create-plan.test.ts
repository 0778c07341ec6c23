import { describe, expect, it } from '@jest/globals';
import { recompute } from '../state/recompute.js';
import { dayAt, isoAt } from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { createPlan } from './create-plan.js';
import type { CreatePlanRequest, SuccessPlan } from './success-plan.js';

const { state } = recompute(WORKED_EXAMPLE);
const now = dayAt(70);
const newId = () => 'plan-new';
const request: CreatePlanRequest = {
  title: '  Go live with our top customers  ',
  targetDate: '2025-06-30T00:00:00+02:00',
  objectives: [
    { label: 'Connected', milestoneKeys: ['first_connection_made', 'first_data_exchange'], met: false },
    { label: 'Scale', milestoneKeys: ['five_connections', 'five_connections'] },
  ],
};
const create = (
  overrides: Partial<CreatePlanRequest> = {},
  role = 'OWNER',
  activePlan: SuccessPlan | null = null,
) => createPlan({ role, activePlan, state }, { ...request, ...overrides }, now, newId);
const codeOf = (result: ReturnType<typeof create>) => (result.ok ? 'OK' : result.error.code);

describe('createPlan', () => {
  it('creates an ACTIVE plan with trimmed title, canonical date and met computed from the state', () => {
    const result = create();
    expect(result).toEqual({
      ok: true,
      value: {
        id: 'plan-new',
        title: 'Go live with our top customers',
        targetDate: '2025-06-29T22:00:00.000Z',
        status: 'ACTIVE',
        renewedFromId: null,
        objectives: [
          { label: 'Connected', milestoneKeys: ['first_connection_made', 'first_data_exchange'], met: true },
          { label: 'Scale', milestoneKeys: ['five_connections'], met: false },
        ],
        createdAt: isoAt(70),
        updatedAt: isoAt(70),
      },
    });
  });

  it('lets only OWNER and ADMIN create plans', () => {
    expect(codeOf(create({}, 'ADMIN'))).toBe('OK');
    expect(codeOf(create({}, 'MEMBER'))).toBe('ROLE_FORBIDDEN');
  });

  it('rejects an empty or overlong title', () => {
    expect(codeOf(create({ title: '   ' }))).toBe('PLAN_INVALID_TITLE');
    expect(codeOf(create({ title: 'x'.repeat(201) }))).toBe('PLAN_INVALID_TITLE');
    expect(codeOf(create({ title: 'x'.repeat(200) }))).toBe('OK');
  });

  it('rejects a target date that is not a zoned ISO timestamp, or not in the future', () => {
    for (const targetDate of ['2025-06-30', 'next spring', '2025-02-30T00:00:00Z', isoAt(70), isoAt(10)]) {
      expect(codeOf(create({ targetDate }))).toBe('INVALID_TARGET_DATE');
    }
  });

  it('needs between one and twenty objectives, each labelled and naming milestones', () => {
    expect(codeOf(create({ objectives: [] }))).toBe('PLAN_NO_OBJECTIVES');
    const many = Array.from({ length: 21 }, (_, i) => ({
      label: `o${i}`,
      milestoneKeys: ['five_connections'],
    }));
    expect(codeOf(create({ objectives: many }))).toBe('PLAN_TOO_MANY_OBJECTIVES');
    expect(codeOf(create({ objectives: [{ label: '', milestoneKeys: ['five_connections'] }] }))).toBe(
      'PLAN_INVALID_OBJECTIVE',
    );
    expect(codeOf(create({ objectives: [{ label: 'x', milestoneKeys: [] }] }))).toBe(
      'PLAN_INVALID_OBJECTIVE',
    );
  });

  it('rejects milestone keys unknown to the catalogue or not applicable to the profile, naming them all', () => {
    const result = create({
      objectives: [{ label: 'x', milestoneKeys: ['supplier_cascade_started', 'nope', 'five_connections'] }],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('PLAN_UNKNOWN_MILESTONES');
      expect(result.error.details).toEqual({ unknownKeys: ['nope', 'supplier_cascade_started'] });
    }
  });

  it('refuses a second active plan with a conflict, after validating the request', () => {
    const active = create();
    if (!active.ok) throw new Error('setup');
    expect(codeOf(create({}, 'OWNER', active.value))).toBe('PLAN_ALREADY_ACTIVE');
    expect(codeOf(create({ title: '' }, 'OWNER', active.value))).toBe('PLAN_INVALID_TITLE');
  });
});
