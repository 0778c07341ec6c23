/**
 * One request body per write operation, showing its use: the document's `examples` (schemathesis
 * sends them first, as positive cases). Keyed like OPERATIONS.
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'POST /api/v1/oauth/token': {
    grant_type: 'client_credentials',
    client_id: 'cl_2f6c9a',
    client_secret: 'cs_…',
    scope: 'products:read',
  },
  'POST /api/v1/oauth/clients': { name: 'ERP sync', scopes: ['products:read', 'imports:write'] },
  'POST /api/v1/auth/login': { email: 'owner@acme.example', password: 'correct horse battery staple' },
  'POST /api/v1/auth/refresh': { refreshToken: 'rt_…' },
  'POST /api/v1/auth/v2/login': { email: 'owner@acme.example', password: 'correct horse battery staple' },
  'POST /api/v1/auth/v2/magic-link/request': { email: 'owner@acme.example' },
  'POST /api/v1/auth/v2/signup': {
    email: 'founder@newco.example',
    companyName: 'NewCo',
    firstName: 'Nia',
    lastName: 'Founder',
  },
  'POST /api/v1/auth/v2/magic-link/redeem': { token: 'ml_…' },
  'POST /api/v1/tenant/adoption/milestones/:key/complete': { evidenceRef: 'product:p-1', expectedVersion: 3 },
  'POST /api/v1/tenant/adoption/success-plan': {
    title: 'First exchange by Q3',
    targetDate: '2099-09-30T00:00:00.000Z',
    objectives: [{ label: 'First product', milestoneKeys: ['first_product_created'], met: false }],
  },
  'POST /api/v1/tenant/adoption/success-plan/renew': {
    fromPlanId: '6f1c2b8e-3a0d-4c47-9a51-0d7f4f2b9e10',
    targetDate: '2099-12-31T00:00:00.000Z',
  },
  'POST /api/v1/entitlements/can': { action: 'BULK_UPLOAD', resourceCount: 500 },
  'PATCH /api/v1/tenant/members/:userId': { role: 'ADMIN' },
  'POST /api/v1/tenant/invitations': { email: 'new.colleague@acme.example', role: 'MEMBER' },
  'POST /api/v1/auth/v2/invitations/inspect': { token: 'inv_…' },
  'POST /api/v1/tenant/webhooks': {
    url: 'https://hooks.acme.example/tap',
    types: ['milestone.completed', 'tier.changed'],
    enabled: true,
  },
  'PATCH /api/v1/tenant/webhooks/:id': { types: ['milestone.completed'], enabled: false },
  'POST /api/v1/auth/v2/invitations/accept': {
    token: 'inv_…',
    firstName: 'Nia',
    lastName: 'Colleague',
    confirmLink: false,
  },
};

/**
 * One value per path and query parameter the routes declare without one, so that every operation
 * of the reference page (/api/v1/docs) shows a filled-in request. Keyed like OPERATIONS; each
 * value satisfies its parameter's schema (the OpenAPI test checks it).
 */
export const PARAMETER_EXAMPLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // A manual milestone: an event-detected one cannot be completed by hand (403).
  'POST /api/v1/tenant/adoption/milestones/:key/complete': { key: 'kickoff_call_held' },
  'GET /api/v1/tenant/adoption/risk-signals': { limit: '20' },
  'GET /api/v1/entitlements/upgrade-context': { capability: 'EXPECTED_DATA_SETS' },
  'GET /api/v1/entitlements/usage/history': {
    key: 'MAX_ACTIVE_PRODUCTS',
    // Fixed, so the generated client does not drift; a month outside the 13 kept answers 400.
    from: '2026-11',
    to: '2026-11',
    granularity: 'day',
    format: 'json',
  },
  'GET /api/v1/auth/v2/sso/:provider/callback': {
    code: 'SplxlOBeZQQYbYS6WxSbIA',
    state: 'af0ifjsldkj',
    iss: 'https://idp.example',
  },
  'POST /api/v1/tenant/join-requests/:id/approve': { id: '0b9d4f0e-6c1a-4e5b-9f3d-2a7c8e1b5d40' },
  'POST /api/v1/tenant/join-requests/:id/reject': { id: '0b9d4f0e-6c1a-4e5b-9f3d-2a7c8e1b5d40' },
  'PATCH /api/v1/tenant/members/:userId': { userId: '5d2e8a41-7b3c-4f19-a6d0-c1e9b8f27a53' },
  'POST /api/v1/tenant/members/:userId/deactivate': { userId: '5d2e8a41-7b3c-4f19-a6d0-c1e9b8f27a53' },
  'POST /api/v1/tenant/members/:userId/reactivate': { userId: '5d2e8a41-7b3c-4f19-a6d0-c1e9b8f27a53' },
  'DELETE /api/v1/oauth/clients/:clientId': { clientId: 'cl_2f6c9a' },
  'POST /api/v1/oauth/clients/:clientId/rotate': { clientId: 'cl_2f6c9a' },
  'DELETE /api/v1/tenant/invitations/:id': { id: '3c1e7a52-8f4d-4b2a-9e61-5d0c2f7b8a19' },
  'DELETE /api/v1/tenant/members/:userId/sessions': { userId: '7a2d9c4e-1b3f-4e8a-8c5d-6f0e2b9a1c37' },
  'DELETE /api/v1/auth/sessions/:id': { id: '5e8b1f3a-2c7d-4a9e-b6f0-1d4c8e2a7b95' },
  'GET /api/v1/tenant/webhooks/:id': { id: '9a4c2e71-5b8d-4f36-a1e0-7c3d9b2f6e58' },
  'PATCH /api/v1/tenant/webhooks/:id': { id: '9a4c2e71-5b8d-4f36-a1e0-7c3d9b2f6e58' },
  'DELETE /api/v1/tenant/webhooks/:id': { id: '9a4c2e71-5b8d-4f36-a1e0-7c3d9b2f6e58' },
  'POST /api/v1/tenant/webhooks/:id/rotate-secret': { id: '9a4c2e71-5b8d-4f36-a1e0-7c3d9b2f6e58' },
  'POST /api/v1/tenant/webhooks/:id/test': { id: '9a4c2e71-5b8d-4f36-a1e0-7c3d9b2f6e58' },
  'GET /api/v1/tenant/webhooks/:id/deliveries': { id: '9a4c2e71-5b8d-4f36-a1e0-7c3d9b2f6e58', limit: '20' },
  'GET /api/v1/tenant/webhooks/deliveries/:deliveryId/attempts': {
    deliveryId: '2e7b5c19-8d4a-4f60-b3c1-9a6f0d8e2b74',
  },
  'POST /api/v1/tenant/webhooks/deliveries/:deliveryId/replay': {
    deliveryId: '2e7b5c19-8d4a-4f60-b3c1-9a6f0d8e2b74',
  },
  'GET /api/v1/tenant/events': {
    after: 'YzE6NjcxYTJiM2M0ZDVlNmY3MDgxOTIwYTFi',
    types: 'milestone.completed,tier.changed',
    limit: '50',
  },
  'GET /api/v1/tenant/audit-events': {
    action: 'oauth_client.created',
    actorId: '5d2e8a41-7b3c-4f19-a6d0-c1e9b8f27a53',
    cursor: 'YzE6NjcxYTJiM2M0ZDVlNmY3MDgxOTIwYTFi',
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-11-30T00:00:00.000Z',
    limit: '50',
    format: 'json',
  },
};
