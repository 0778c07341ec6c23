import type { CanActionName } from '@tap/contracts';
import { entitlementErrors } from '../errors.js';
import type { CapabilityKey, LimitKey } from '../catalogue/keys.js';

/** What a `can` action spends, and the capability it needs besides, if any. */
export interface CanActionRule {
  readonly limit: LimitKey;
  readonly capability: CapabilityKey | null;
}

/**
 * The actions `can` and reservations understand. BULK_UPLOAD is the spec's; the others are
 * ours, one per resource limit, so that every limit can be checked before it is spent.
 */
export const CAN_ACTIONS = Object.freeze({
  BULK_UPLOAD: { limit: 'BULK_UPLOAD_ROWS_MONTH', capability: 'BULK_UPLOAD' },
  CREATE_PRODUCT: { limit: 'MAX_ACTIVE_PRODUCTS', capability: null },
  CREATE_CONNECTION: { limit: 'MAX_CONNECTIONS', capability: null },
  INVITE_USER: { limit: 'MAX_USERS', capability: null },
  TRACE_PRODUCT: { limit: 'MAX_TRACED_PRODUCTS', capability: 'TRACEABILITY' },
} as const satisfies Record<CanActionName, CanActionRule>);

/** A `can` action name. */
export type CanAction = keyof typeof CAN_ACTIONS;

/** True for a known action name. */
export function isCanAction(value: string): value is CanAction {
  return Object.hasOwn(CAN_ACTIONS, value);
}

/** Narrows `action` to a known action; throws UNKNOWN_ACTION for anything else. */
export function parseCanAction(action: string): CanAction {
  if (!isCanAction(action)) {
    throw entitlementErrors.create('UNKNOWN_ACTION', { details: { action } });
  }
  return action;
}

/** The rule for `action`; throws UNKNOWN_ACTION for anything else. */
export function canActionRule(action: string): CanActionRule {
  return CAN_ACTIONS[parseCanAction(action)];
}
