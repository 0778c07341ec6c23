import { envelopeSchema } from '../envelope.js';

/*
 * Success response schemas of identity's edge (token endpoints, cookie sessions, OAuth clients,
 * join requests): Fastify serialises exactly these fields, so nothing else a service returns
 * (a tenant id, a hash) can leak into an answer, and the OpenAPI document shows them.
 */

const STRING = { type: 'string' };
const strictObject = (properties: Record<string, object>, optional: readonly string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});

/** RFC 6749 §5.1, as the spec has it; not wrapped in the API envelope. */
export const tokenResponse = {
  200: {
    description: 'An access token for the client',
    ...strictObject({
      access_token: STRING,
      token_type: { const: 'Bearer' },
      expires_in: { type: 'integer', minimum: 1 },
      scope: STRING,
    }),
  },
};

const v1User = strictObject({ id: STRING, email: STRING, role: STRING });
export const loginResponse = {
  200: envelopeSchema(strictObject({ accessToken: STRING, refreshToken: STRING, user: v1User })),
};
export const refreshResponse = {
  200: envelopeSchema(strictObject({ accessToken: STRING, refreshToken: STRING })),
};

/** The spec's cookie-session user. */
export const cookieSessionUser = strictObject({
  id: STRING,
  email: STRING,
  role: STRING,
  firstName: STRING,
  lastName: STRING,
  tenantId: STRING,
  tenant: strictObject({ id: STRING, name: STRING, slug: STRING, subscriptionTier: STRING }),
});
export const browserLoginResponse = { 200: envelopeSchema(strictObject({ user: cookieSessionUser })) };

/** The fixed-message answers of magic-link request and sign-up. */
export const messageResponse = {
  200: strictObject({ success: { const: true }, message: STRING }),
};

/** Redeem's two 200 outcomes: signed in (cookies set), or a join request waiting for approval. */
export const redeemResponse = {
  200: {
    anyOf: [
      strictObject({
        success: { const: true },
        message: STRING,
        data: strictObject({ user: cookieSessionUser, tenantProvisioned: { type: 'boolean' } }),
      }),
      strictObject({ success: { const: true }, status: { const: 'pending_approval' }, message: STRING }),
    ],
  },
};

const clientProperties = {
  clientId: STRING,
  name: STRING,
  scopes: { type: 'array', items: STRING },
  createdAt: STRING,
  secretRotatedAt: STRING,
};
export const createClientResponse = {
  201: envelopeSchema(strictObject({ ...clientProperties, clientSecret: STRING })),
};
export const listClientsResponse = {
  200: envelopeSchema(strictObject({ clients: { type: 'array', items: strictObject(clientProperties) } })),
};
export const rotateClientResponse = {
  200: envelopeSchema(strictObject({ clientId: STRING, clientSecret: STRING, secretRotatedAt: STRING })),
};

const joinRequest = strictObject({
  id: STRING,
  userId: STRING,
  email: STRING,
  firstName: STRING,
  lastName: STRING,
  status: STRING,
  createdAt: STRING,
});
export const listJoinRequestsResponse = {
  200: envelopeSchema(strictObject({ requests: { type: 'array', items: joinRequest } })),
};
export const approveJoinRequestResponse = { 200: envelopeSchema(joinRequest) };
