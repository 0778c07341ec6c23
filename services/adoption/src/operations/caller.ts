import type { AccessClaims } from '@tap/tokens';
import { auditEvent, type AuditActor, type OutboundEvent } from '../domain/index.js';

/** The verified caller of an RPC: its claims and the credential it presented. */
export interface Caller {
  readonly claims: AccessClaims;
  readonly authorization: string;
  /** The gateway's id of the request being served, named by the audit entries it leads to. */
  readonly requestId?: string;
}

/**
 * Who an audit entry names for a caller: the kind and subject of its verified claims, nothing of
 * its credential. A service acting on its own is the system.
 */
export function auditActor(caller: Caller): AuditActor {
  const { kind, subject } = caller.claims;
  return { type: kind === 'service' ? 'system' : kind, id: subject };
}

/** The audit entry of a change `caller` made: named after its claims, and after the gateway's request id. */
export function callerAuditEvent(
  caller: Caller,
  entry: Pick<Parameters<typeof auditEvent>[0], 'id' | 'action' | 'target' | 'at'>,
): OutboundEvent {
  return auditEvent({
    ...entry,
    tenantId: caller.claims.tenantId,
    actor: auditActor(caller),
    ...(caller.requestId === undefined ? {} : { requestId: caller.requestId }),
  });
}
