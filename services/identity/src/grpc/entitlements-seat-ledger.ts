import type { EntitlementsServiceClient } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { KeyRing } from '../keys/key-ring.js';
import type { SeatDenial, SeatLedger } from '../operations/ports/seat-ledger.js';

/** The subject of identity's service tokens; entitlements' seat RPCs accept no other. */
export const IDENTITY_SERVICE_SUBJECT = 'identity';

/**
 * The SeatLedger over entitlements' gRPC seat RPCs. Identity authenticates to entitlements twice,
 * like every caller: its mTLS certificate (the allowlist admits only `identity` to the seat RPCs)
 * and an access token it signs itself for the tenant (`kind: service`, `sub: identity`), which
 * entitlements verifies against identity's JWKS. So the tenant comes from a signed token, never
 * from a request field (docs/security.md "Service-to-service authentication").
 */
export function entitlementsSeatLedger(options: {
  /** Resolved at each call: the client may be made after identity is built (test stacks). */
  client: () => EntitlementsServiceClient;
  keyRing: KeyRing;
  now: () => Date;
}): SeatLedger {
  const authorizationFor = async (tenantId: string) => {
    const now = options.now();
    const { token } = await options.keyRing.signer(now).sign(
      {
        subject: IDENTITY_SERVICE_SUBJECT,
        kind: 'service',
        tenantId,
        role: '',
        scopes: [],
        sessionId: `service:${IDENTITY_SERVICE_SUBJECT}`,
      },
      now,
    );
    return { authorization: `Bearer ${token}` };
  };
  return {
    async take(tenantId, userId) {
      const answer = await unaryCall(
        options.client(),
        'TakeSeat',
        { userId },
        await authorizationFor(tenantId),
      );
      if (answer.granted) return { granted: true };
      const details = answer.denial?.details;
      const denial: SeatDenial = {
        limit: 'MAX_USERS',
        current: Number(details?.current ?? answer.seatsHeld),
        requested: Number(details?.requested ?? 1),
        available: Number(details?.available ?? 0),
      };
      return { granted: false, denial };
    },
    async release(tenantId, userId) {
      await unaryCall(options.client(), 'ReleaseSeat', { userId }, await authorizationFor(tenantId));
    },
    async sync(tenantId, userIds, listedAt) {
      const answer = await unaryCall(
        options.client(),
        'SyncSeats',
        { userIds: [...userIds], listedAt: listedAt.toISOString() },
        { ...(await authorizationFor(tenantId)), deadlineMs: 30_000 },
      );
      return { seatsHeld: Number(answer.seatsHeld) };
    },
  };
}
