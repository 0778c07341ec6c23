import type { ApiError } from './api.js';
import type { UpgradeContext } from './types.js';

/**
 * The refusals of the team, invitation and session routes in words a person acts on. Pages branch
 * on `code`, never on the server's message; a code not listed here shows the server's message.
 */
const WORDS: Readonly<Record<string, string>> = {
  LAST_OWNER:
    'Your company must keep at least one active Owner. Make someone else an Owner first (LAST_OWNER).',
  FORBIDDEN_ROLE: 'Only an Owner can change, deactivate or invite an Owner (FORBIDDEN_ROLE).',
  ALREADY_MEMBER: 'That address already belongs to a member of your company (ALREADY_MEMBER).',
  INVITATION_PENDING:
    'An invitation to that address is already pending: revoke it to send a new one (INVITATION_PENDING).',
  USER_NOT_FOUND: 'That member no longer exists. The list has been reloaded (USER_NOT_FOUND).',
  JOIN_REQUEST_NOT_FOUND:
    'That request was already handled. The list has been reloaded (JOIN_REQUEST_NOT_FOUND).',
  INVITATION_NOT_FOUND: 'That invitation was already used or revoked. The list has been reloaded.',
  SESSION_NOT_FOUND: 'That session has already ended (SESSION_NOT_FOUND).',
  ACCOUNT_OWNS_TENANT:
    'Your account owns another company: make someone else its Owner there before joining (ACCOUNT_OWNS_TENANT).',
  LINK_CONFIRMATION_REQUIRED:
    'Confirm that your existing account moves to this company (LINK_CONFIRMATION_REQUIRED).',
  PASSWORD_TOO_WEAK: 'The password must be 12 to 128 characters long (PASSWORD_TOO_WEAK).',
  INVALID_OR_EXPIRED: 'The invitation is invalid, has expired or was already used (INVALID_OR_EXPIRED).',
  /* Webhooks and the audit log (issue #24). */
  ENDPOINT_URL_INVALID:
    'Use an absolute https address without a user, password or #fragment (ENDPOINT_URL_INVALID).',
  ENDPOINT_ADDRESS_FORBIDDEN:
    'That address points into a private, loopback or link-local network; use a public one (ENDPOINT_ADDRESS_FORBIDDEN).',
  ENDPOINT_HOST_UNRESOLVED: 'That host name does not resolve (ENDPOINT_HOST_UNRESOLVED).',
  ENDPOINT_NOT_FOUND: 'That endpoint no longer exists. The list has been reloaded (ENDPOINT_NOT_FOUND).',
  DELIVERY_NOT_FOUND: 'That delivery no longer exists (DELIVERY_NOT_FOUND).',
  ENDPOINT_DISABLED: 'That endpoint is disabled: enable it to send a test event (ENDPOINT_DISABLED).',
  AUDIT_RANGE_TOO_LONG: 'Choose at most 400 days at a time (AUDIT_RANGE_TOO_LONG).',
  AUDIT_RANGE_INVALID: '"From" must be before "To" (AUDIT_RANGE_INVALID).',
};

interface SeatDetails {
  limit?: unknown;
  current?: unknown;
  available?: unknown;
  upgradeContext?: unknown;
}

const isUpgradeContext = (value: unknown): value is UpgradeContext =>
  typeof value === 'object' && value !== null && 'currentTier' in value && 'cta' in value;

/** The upgrade context of a refusal, where the gateway puts it (in `details` or beside it). */
export function upgradeContextOf(error: ApiError): UpgradeContext | undefined {
  const details = (error.body['details'] ?? {}) as SeatDetails;
  const context = details.upgradeContext ?? error.body['upgradeContext'];
  return isUpgradeContext(context) ? context : undefined;
}

/**
 * A seat refusal (403 LIMIT_EXCEEDED on MAX_USERS): how many users the plan allows and what to do,
 * e.g. "Your plan allows 3 users — upgrade to Core to add more (3 active, 0 free)".
 */
function seatLimit(error: ApiError): string {
  const details = (error.body['details'] ?? {}) as SeatDetails;
  const current = typeof details.current === 'number' ? details.current : undefined;
  const available = typeof details.available === 'number' ? details.available : undefined;
  const allowed = current !== undefined && available !== undefined ? current + available : undefined;
  const context = upgradeContextOf(error);
  const plan = context ? `Your plan (${context.currentTier.name})` : 'Your plan';
  const head = allowed !== undefined ? `${plan} allows ${allowed} users` : `${plan} has no free user seat`;
  const next =
    context?.upgradeAvailable && context.targetTier
      ? `upgrade to ${context.targetTier.name} to add more`
      : 'deactivate a member to free a seat';
  const counts = current !== undefined ? ` (${current} active, ${available ?? 0} free)` : '';
  return `${head} — ${next}${counts}. (LIMIT_EXCEEDED)`;
}

/** The words for a known refusal, or undefined to fall back on the server's message. */
export function refusalWords(error: ApiError): string | undefined {
  if (error.code === 'LIMIT_EXCEEDED') return seatLimit(error);
  return WORDS[error.code];
}
