import { describe, expect, it } from '@jest/globals';
import type { AdoptionState } from '../state/adoption-state.js';
import { recompute } from '../state/recompute.js';
import { ALL_CAPABILITIES, dayAt, fact, isoAt, recomputeInput } from '../testing/fact-builders.js';
import { completeMilestone } from './complete-milestone.js';
import type { CompleteMilestoneOptions } from './complete-milestone.js';

const profileDone = recompute(
  recomputeInput({
    facts: [fact('company.profile_completed', 0)],
    capabilities: ALL_CAPABILITIES,
    version: 4,
    now: dayAt(1),
  }),
).state;
const complete = (
  key: string,
  options: Partial<CompleteMilestoneOptions> = {},
  state: AdoptionState = profileDone,
) => completeMilestone(state, key, { capabilities: ALL_CAPABILITIES, ...options }, dayAt(2), () => 'evt-1');
const codeOf = (result: ReturnType<typeof complete>) =>
  result.ok ? result.value.outcome : result.error.code;

describe('completeMilestone', () => {
  it('completes an available manual milestone and returns the completion and the event to publish', () => {
    const result = complete('kickoff_call_held', {
      evidenceRef: 'crm:call-1',
      actorId: 'u-7',
      expectedVersion: 4,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        outcome: 'COMPLETED',
        completion: {
          id: 'evt-1',
          key: 'kickoff_call_held',
          completedAt: isoAt(2),
          evidenceRef: 'crm:call-1',
          actorId: 'u-7',
        },
        event: {
          id: 'evt-1',
          type: 'milestone.completed',
          tenantId: 't-1',
          occurredAt: isoAt(2),
          subject: { milestoneKey: 'kickoff_call_held' },
          data: { evidenceRef: 'crm:call-1', actorId: 'u-7' },
        },
      },
    });
  });

  it('makes the milestone DONE once the completion is recomputed in', () => {
    const result = complete('kickoff_call_held');
    if (!result.ok || result.value.outcome !== 'COMPLETED') throw new Error('setup');
    const { state } = recompute(
      recomputeInput({
        facts: [fact('company.profile_completed', 0)],
        manualCompletions: [result.value.completion],
        now: dayAt(2),
      }),
    );
    expect(state.milestones.find((m) => m.key === 'kickoff_call_held')).toMatchObject({
      status: 'DONE',
      completedAt: isoAt(2),
    });
  });

  it('answers MILESTONE_NOT_FOUND for an unknown key', () => {
    expect(codeOf(complete('no_such_milestone'))).toBe('MILESTONE_NOT_FOUND');
  });

  it('answers MILESTONE_NOT_MANUAL for an event-detected milestone, done or not', () => {
    expect(codeOf(complete('first_product_created'))).toBe('MILESTONE_NOT_MANUAL');
    expect(codeOf(complete('company_profile_completed'))).toBe('MILESTONE_NOT_MANUAL');
  });

  it('answers VERSION_CONFLICT when expectedVersion is stale, and accepts a missing one', () => {
    expect(codeOf(complete('kickoff_call_held', { expectedVersion: 3 }))).toBe('VERSION_CONFLICT');
    expect(codeOf(complete('kickoff_call_held'))).toBe('COMPLETED');
  });

  it('answers MILESTONE_DEPENDENCIES_UNMET, listing them, when the milestone is locked', () => {
    const result = complete('network_review_completed');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('MILESTONE_DEPENDENCIES_UNMET');
      expect(result.error.details).toMatchObject({ unmetDependencyKeys: ['five_connections'] });
    }
  });

  it('answers MILESTONE_CAPABILITY_REQUIRED when the tier lacks the capability', () => {
    expect(codeOf(complete('network_review_completed', { capabilities: [] }))).toBe(
      'MILESTONE_CAPABILITY_REQUIRED',
    );
  });

  it('treats completing a DONE milestone again as a no-op, but answers a stale version with VERSION_CONFLICT', () => {
    const done = {
      ...profileDone,
      milestones: profileDone.milestones.map((m) =>
        m.key === 'kickoff_call_held' ? { ...m, status: 'DONE' as const } : m,
      ),
    };
    expect(codeOf(complete('kickoff_call_held', {}, done))).toBe('ALREADY_DONE');
    expect(codeOf(complete('kickoff_call_held', { expectedVersion: 4 }, done))).toBe('ALREADY_DONE');
    expect(codeOf(complete('kickoff_call_held', { expectedVersion: 1 }, done))).toBe('VERSION_CONFLICT');
  });

  it('rejects a malformed expectedVersion or evidenceRef', () => {
    expect(codeOf(complete('kickoff_call_held', { expectedVersion: -1 }))).toBe('INVALID_EXPECTED_VERSION');
    expect(codeOf(complete('kickoff_call_held', { expectedVersion: 1.5 }))).toBe('INVALID_EXPECTED_VERSION');
    expect(codeOf(complete('kickoff_call_held', { evidenceRef: ' ' }))).toBe('INVALID_EVIDENCE_REF');
    expect(codeOf(complete('kickoff_call_held', { evidenceRef: 'x'.repeat(501) }))).toBe(
      'INVALID_EVIDENCE_REF',
    );
  });
});
