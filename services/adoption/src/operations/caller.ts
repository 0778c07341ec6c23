import type { AccessClaims } from '@tap/tokens';

/** The verified caller of an RPC: its claims and the credential it presented. */
export interface Caller {
  readonly claims: AccessClaims;
  readonly authorization: string;
}
