/** The document's tags: one per part of the API. */
export const TAGS = {
  meta: 'This document',
  oauth: 'OAuth 2.0 client credentials and client management',
  'auth-v1': 'Bearer login with rotating refresh tokens',
  'auth-v2': 'Browser cookie sessions, magic links and SSO (Origin allowlist, CSRF)',
  tenant: "The caller's tenant, its members and its join requests",
  adoption: 'Adoption state, milestones, coverage, risk signals, success plans',
  entitlements: 'Usage, `can` checks and upgrade context',
  notifications: 'Signed webhooks, the events feed (JSON and server-sent events) and the audit log',
} as const;
export type Tag = keyof typeof TAGS;
