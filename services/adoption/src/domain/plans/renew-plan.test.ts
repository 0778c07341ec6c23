import { describe, expect, it } from '@jest/globals';
import { recompute } from '../state/recompute.js';
import { dayAt, isoAt } from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { evaluatePlan } from './objectives.js';
import { renewPlan } from './renew-plan.js';
import type { SuccessPlan } from './success-plan.js';

const { state } = recompute(WORKED_EXAMPLE);
const now = dayAt(70);
const active: SuccessPlan = {
  id: 'plan-1',
  title: 'Go live',
  targetDate: isoAt(60),
  status: 'ACTIVE',
  renewedFromId: null,
  objectives: [
    { label: 'Connected', milestoneKeys: ['first_connection_made'], met: false },
    { label: 'Scale', milestoneKeys: ['five_connections'], met: false },
  ],
  createdAt: isoAt(0),
  updatedAt: isoAt(0),
};
const renew = (targetDate?: string, role = 'ADMIN', predecessor: SuccessPlan | null = active) =>
  renewPlan(
    { role, predecessor, state },
    { fromPlanId: 'plan-1', ...(targetDate === undefined ? {} : { targetDate }) },
    now,
    () => 'plan-2',
  );
const codeOf = (result: ReturnType<typeof renew>) => (result.ok ? 'OK' : result.error.code);

describe('renewPlan', () => {
  it('marks the predecessor RENEWED and carries every objective into a new ACTIVE plan', () => {
    const result = renew(isoAt(150));
    expect(result).toEqual({
      ok: true,
      value: {
        renewed: { ...active, status: 'RENEWED', updatedAt: isoAt(70) },
        successor: {
          id: 'plan-2',
          title: 'Go live',
          targetDate: isoAt(150),
          status: 'ACTIVE',
          renewedFromId: 'plan-1',
          objectives: [
            { label: 'Connected', milestoneKeys: ['first_connection_made'], met: true },
            { label: 'Scale', milestoneKeys: ['five_connections'], met: false },
          ],
          createdAt: isoAt(70),
          updatedAt: isoAt(70),
        },
      },
    });
  });

  it('defaults the target date to the predecessor planned length, counted from now', () => {
    const result = renew();
    expect(result.ok && result.value.successor.targetDate).toBe(isoAt(130));
  });

  it('lets only OWNER and ADMIN renew', () => {
    expect(codeOf(renew(undefined, 'OWNER'))).toBe('OK');
    expect(codeOf(renew(undefined, 'VIEWER'))).toBe('ROLE_FORBIDDEN');
  });

  it('answers PLAN_NOT_FOUND for a plan the tenant does not have', () => {
    expect(codeOf(renew(undefined, 'ADMIN', null))).toBe('PLAN_NOT_FOUND');
    expect(codeOf(renew(undefined, 'ADMIN', { ...active, id: 'someone-elses' }))).toBe('PLAN_NOT_FOUND');
  });

  it('answers PLAN_NOT_ACTIVE when the plan was already renewed', () => {
    expect(codeOf(renew(undefined, 'ADMIN', { ...active, status: 'RENEWED' }))).toBe('PLAN_NOT_ACTIVE');
  });

  it('rejects a target date in the past', () => {
    expect(codeOf(renew(isoAt(69)))).toBe('INVALID_TARGET_DATE');
  });
});

describe('evaluatePlan', () => {
  it('recomputes met from milestone statuses; NOT_APPLICABLE counts as met, unknown keys never do', () => {
    const plan: SuccessPlan = {
      ...active,
      objectives: [
        { label: 'na', milestoneKeys: ['first_data_request_sent', 'first_connection_made'], met: false },
        { label: 'gone', milestoneKeys: ['retired_milestone'], met: true },
      ],
    };
    expect(evaluatePlan(plan, state).objectives.map((o) => o.met)).toEqual([true, false]);
  });
});
