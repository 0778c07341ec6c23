import { defineErrors } from '@tap/errors';
import type { DomainError } from '@tap/errors';

/**
 * The adoption service's one error catalogue. Every failure a caller can cause has a code here;
 * the gRPC edge maps `kind` to a status and the gateway maps that to HTTP, so the kinds below are
 * chosen for the statuses the spec names (404 unknown milestone, 403 unmet dependencies,
 * 409 stale version, 409 plan already active).
 */
export const adoptionErrors = defineErrors({
  MILESTONE_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No milestone with this key exists' },
  // A fixed property of the milestone, not a state it can leave: a bad request, not a precondition.
  MILESTONE_NOT_MANUAL: {
    kind: 'INVALID_ARGUMENT',
    message: 'This milestone completes itself when its event is detected and cannot be completed by hand',
  },
  MILESTONE_NOT_APPLICABLE: {
    kind: 'FAILED_PRECONDITION',
    message: 'This milestone does not apply to the tenant path profile',
  },
  MILESTONE_CAPABILITY_REQUIRED: {
    kind: 'PERMISSION_DENIED',
    message: 'This milestone needs a capability the subscription tier does not include',
  },
  MILESTONE_DEPENDENCIES_UNMET: {
    kind: 'FAILED_PRECONDITION',
    message: 'The milestones this one depends on are not done yet',
  },
  VERSION_CONFLICT: {
    kind: 'CONFLICT',
    message: 'The adoption state changed since expectedVersion was read',
  },
  INVALID_EXPECTED_VERSION: {
    kind: 'INVALID_ARGUMENT',
    message: 'expectedVersion must be a non-negative integer',
  },
  INVALID_EVIDENCE_REF: {
    kind: 'INVALID_ARGUMENT',
    message: 'evidenceRef must be a non-empty string of at most 500 characters',
  },
  PLAN_ALREADY_ACTIVE: { kind: 'CONFLICT', message: 'The tenant already has an active success plan' },
  PLAN_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No success plan with this id exists for the tenant' },
  // Renewing an already renewed plan is almost always a concurrent double submit: a conflict.
  PLAN_NOT_ACTIVE: { kind: 'CONFLICT', message: 'Only the active success plan can be renewed' },
  PLAN_UNKNOWN_MILESTONES: {
    kind: 'INVALID_ARGUMENT',
    message: 'An objective names milestone keys that do not exist for the tenant path profile',
  },
  PLAN_NO_OBJECTIVES: { kind: 'INVALID_ARGUMENT', message: 'A success plan needs at least one objective' },
  PLAN_TOO_MANY_OBJECTIVES: { kind: 'INVALID_ARGUMENT', message: 'A success plan has at most 20 objectives' },
  PLAN_INVALID_TITLE: { kind: 'INVALID_ARGUMENT', message: 'The title must be 1 to 200 characters long' },
  PLAN_INVALID_OBJECTIVE: {
    kind: 'INVALID_ARGUMENT',
    message: 'Each objective needs a label of 1 to 200 characters and at least one milestone key',
  },
  INVALID_TARGET_DATE: {
    kind: 'INVALID_ARGUMENT',
    message: 'targetDate must be an ISO 8601 timestamp in the future',
  },
  ROLE_FORBIDDEN: { kind: 'PERMISSION_DENIED', message: 'Only an OWNER or ADMIN may do this' },
  // activeSignals clamps for robustness, but a caller asking for 0 or 1000 gets told, not guessed at.
  INVALID_SIGNAL_LIMIT: {
    kind: 'INVALID_ARGUMENT',
    message: 'limit must be an integer from 1 to 200',
  },
});

/** Every code of the adoption catalogue. */
export type AdoptionErrorCode = keyof typeof adoptionErrors.catalogue;

/** An error value of the adoption catalogue. */
export type AdoptionError = DomainError<AdoptionErrorCode>;
