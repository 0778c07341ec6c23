import { capabilitySet } from '../catalogue/capabilities.js';
import { MILESTONE_COMPLETED_EVENT } from '../catalogue/event-kinds.js';
import { adoptionErrors } from '../errors.js';
import type { EventEnvelope, ManualCompletion } from '../facts/facts.js';
import type { Result } from '../result.js';
import { fail, ok } from '../result.js';
import type { AdoptionState, Milestone } from '../state/adoption-state.js';
import { toIso } from '../time.js';

/** Longest accepted evidence reference (the event contract's bound for `data.evidenceRef`). */
export const MAX_EVIDENCE_REF = 500;

/** The optional request body plus what the caller knows about the tenant. */
export interface CompleteMilestoneOptions {
  readonly expectedVersion?: number;
  readonly evidenceRef?: string;
  /** The authenticated user, recorded on the completion. */
  readonly actorId?: string;
  /** Capability keys the tier grants. */
  readonly capabilities: readonly string[];
}

/**
 * ALREADY_DONE: nothing to write and nothing to emit (completing twice is a no-op, so a client
 * retry without `expectedVersion` after a lost response succeeds; a retry that pins a version
 * that moved gets the 409 the interface promises, like any stale version).
 * COMPLETED: append `completion` to the tenant's completions, recompute, write with version + 1
 * (conditional on the version read), then publish `event`.
 */
export type CompleteMilestoneOutcome =
  | { readonly outcome: 'ALREADY_DONE' }
  | { readonly outcome: 'COMPLETED'; readonly completion: ManualCompletion; readonly event: EventEnvelope };

function checkInput(options: CompleteMilestoneOptions): Result<null> {
  const { expectedVersion, evidenceRef } = options;
  if (expectedVersion !== undefined && (!Number.isInteger(expectedVersion) || expectedVersion < 0)) {
    return fail(adoptionErrors.create('INVALID_EXPECTED_VERSION'));
  }
  if (evidenceRef !== undefined && (evidenceRef.trim() === '' || evidenceRef.length > MAX_EVIDENCE_REF)) {
    return fail(adoptionErrors.create('INVALID_EVIDENCE_REF'));
  }
  return ok(null);
}

function checkVersion(state: AdoptionState, key: string, options: CompleteMilestoneOptions): Result<null> {
  if (options.expectedVersion === undefined || options.expectedVersion === state.version) return ok(null);
  const conflict = { key, expectedVersion: options.expectedVersion, currentVersion: state.version };
  return fail(adoptionErrors.create('VERSION_CONFLICT', { details: conflict }));
}

function checkState(
  state: AdoptionState,
  milestone: Milestone,
  options: CompleteMilestoneOptions,
): Result<null> {
  const details = { key: milestone.key };
  if (milestone.status === 'NOT_APPLICABLE')
    return fail(adoptionErrors.create('MILESTONE_NOT_APPLICABLE', { details }));
  const capability = milestone.requiredCapability;
  if (capability !== null && !capabilitySet(options.capabilities).has(capability)) {
    return fail(
      adoptionErrors.create('MILESTONE_CAPABILITY_REQUIRED', { details: { ...details, capability } }),
    );
  }
  if (milestone.status === 'LOCKED') {
    const unmet = milestone.lockedReasons.map((r) => r.unmetDependencyKey);
    return fail(
      adoptionErrors.create('MILESTONE_DEPENDENCIES_UNMET', {
        details: { ...details, unmetDependencyKeys: unmet },
      }),
    );
  }
  return ok(null);
}

/**
 * The manual-completion rule. Checks, in order: input shape; unknown key → MILESTONE_NOT_FOUND
 * (404); event-detected milestone → MILESTONE_NOT_MANUAL (400); stale expectedVersion →
 * VERSION_CONFLICT (409), DONE or not; already DONE → ALREADY_DONE; not applicable to the profile; capability
 * missing; dependencies not DONE/NOT_APPLICABLE → MILESTONE_DEPENDENCIES_UNMET (403).
 */
export function completeMilestone(
  state: AdoptionState,
  key: string,
  options: CompleteMilestoneOptions,
  now: Date,
  newId: () => string,
): Result<CompleteMilestoneOutcome> {
  const input = checkInput(options);
  if (!input.ok) return input;
  const milestone = state.milestones.find((m) => m.key === key);
  if (milestone === undefined)
    return fail(adoptionErrors.create('MILESTONE_NOT_FOUND', { details: { key } }));
  if (milestone.completionMode !== 'MANUAL')
    return fail(adoptionErrors.create('MILESTONE_NOT_MANUAL', { details: { key } }));
  const version = checkVersion(state, key, options);
  if (!version.ok) return version;
  if (milestone.status === 'DONE') return ok({ outcome: 'ALREADY_DONE' });
  const allowed = checkState(state, milestone, options);
  if (!allowed.ok) return allowed;
  const completion: ManualCompletion = {
    id: newId(),
    key,
    completedAt: toIso(now.getTime()),
    evidenceRef: options.evidenceRef ?? null,
    actorId: options.actorId ?? null,
  };
  return ok({
    outcome: 'COMPLETED',
    completion,
    event: milestoneCompletedEvent(state.companyId, completion),
  });
}

/** The `milestone.completed` envelope adoption publishes for a manual completion. */
export function milestoneCompletedEvent(companyId: string, completion: ManualCompletion): EventEnvelope {
  const data: Record<string, string> = {};
  if (completion.evidenceRef !== null) data['evidenceRef'] = completion.evidenceRef;
  if (completion.actorId !== null) data['actorId'] = completion.actorId;
  return {
    id: completion.id,
    type: MILESTONE_COMPLETED_EVENT,
    tenantId: companyId,
    occurredAt: completion.completedAt,
    subject: { milestoneKey: completion.key },
    data,
  };
}
