import { Type, type TProperties } from '@sinclair/typebox';
import { API_SCOPES, INVITATION_STATUSES, JOIN_REQUEST_STATUSES, ROLES, TIER_CODES } from '@tap/contracts';
import { Envelope, EnumText, Nullable } from '../typebox.js';

/*
 * Success response schemas of identity's edge (token endpoints, cookie sessions, OAuth clients,
 * join requests), in TypeBox: Fastify serialises exactly these fields, so nothing else a service
 * returns (a tenant id, a hash) can leak into an answer, and the OpenAPI document shows them.
 */

/** An object with exactly these properties (none optional unless marked so). */
const Closed = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** RFC 6749 §5.1, as the spec has it; not wrapped in the API envelope. */
export const tokenResponse = {
  200: Type.Object(
    {
      access_token: Type.String(),
      token_type: Type.Literal('Bearer'),
      expires_in: Type.Integer({ minimum: 1 }),
      scope: Type.String(),
    },
    { additionalProperties: false, description: 'An access token for the client' },
  ),
};

const V1User = Closed({ id: Type.String(), email: Type.String(), role: EnumText(ROLES) });
export const loginResponse = {
  200: Envelope(Closed({ accessToken: Type.String(), refreshToken: Type.String(), user: V1User })),
};
export const refreshResponse = {
  200: Envelope(Closed({ accessToken: Type.String(), refreshToken: Type.String() })),
};

/** The spec's cookie-session user. */
export const cookieSessionUser = Closed({
  id: Type.String(),
  email: Type.String(),
  role: EnumText(ROLES),
  firstName: Type.String(),
  lastName: Type.String(),
  tenantId: Type.String(),
  tenant: Closed({
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    subscriptionTier: EnumText(TIER_CODES),
  }),
});
export const browserLoginResponse = { 200: Envelope(Closed({ user: cookieSessionUser })) };

/** The fixed-message answers of magic-link request and sign-up. */
export const messageResponse = {
  200: Closed({ success: Type.Literal(true), message: Type.String() }),
};

/** Redeem's two 200 outcomes: signed in (cookies set), or a join request waiting for approval. */
export const redeemResponse = {
  200: Type.Union([
    Closed({
      success: Type.Literal(true),
      message: Type.String(),
      data: Closed({ user: cookieSessionUser, tenantProvisioned: Type.Boolean() }),
    }),
    Closed({ success: Type.Literal(true), status: Type.Literal('pending_approval'), message: Type.String() }),
  ]),
};

const clientProperties = {
  clientId: Type.String(),
  name: Type.String(),
  scopes: Type.Array(EnumText(API_SCOPES)),
  createdAt: Type.String(),
  secretRotatedAt: Type.String(),
};
export const createClientResponse = {
  201: Envelope(Closed({ ...clientProperties, clientSecret: Type.String() })),
};
export const listClientsResponse = {
  200: Envelope(Closed({ clients: Type.Array(Closed(clientProperties)) })),
};
export const rotateClientResponse = {
  200: Envelope(
    Closed({ clientId: Type.String(), clientSecret: Type.String(), secretRotatedAt: Type.String() }),
  ),
};

/** A request to join the tenant, as the join-request routes answer it. */
export const JoinRequest = Closed({
  id: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  status: EnumText(JOIN_REQUEST_STATUSES),
  createdAt: Type.String(),
});
export const listJoinRequestsResponse = {
  200: Envelope(Closed({ requests: Type.Array(JoinRequest) })),
};
export const approveJoinRequestResponse = { 200: Envelope(JoinRequest) };

const Invitation = Closed({
  id: Type.String(),
  email: Type.String(),
  role: EnumText(ROLES),
  status: EnumText(INVITATION_STATUSES),
  invitedBy: Closed({ id: Type.String(), email: Type.String() }),
  createdAt: Type.String(),
  expiresAt: Type.String(),
});
export const createInvitationResponse = { 201: Envelope(Closed({ invitation: Invitation })) };
export const listInvitationsResponse = { 200: Envelope(Closed({ invitations: Type.Array(Invitation) })) };
export const inspectInvitationResponse = {
  200: Envelope(
    Closed({
      invitation: Closed({
        email: Type.String(),
        role: EnumText(ROLES),
        tenantName: Type.String(),
        expiresAt: Type.String(),
        existingAccount: Type.Boolean(),
      }),
    }),
  ),
};
export const acceptInvitationResponse = {
  200: Envelope(Closed({ outcome: Type.Literal('SIGNED_IN'), user: cookieSessionUser })),
};

const SessionInfo = Closed({
  id: Type.String(),
  userAgent: Type.String(),
  address: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
  current: Type.Boolean(),
});
export const listSessionsResponse = { 200: Envelope(Closed({ sessions: Type.Array(SessionInfo) })) };
export const revokedCountResponse = {
  200: Envelope(Closed({ revoked: Type.Integer({ minimum: 0 }) })),
};
