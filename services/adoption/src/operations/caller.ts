import type { AccessClaims } from '@tap/tokens';
import type { AuditActor } from '../domain/index.js';

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
