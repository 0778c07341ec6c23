import type { RpcAllowlist } from '@tap/grpc-kit';

/**
 * The service identities of the platform (SPIFFE service-account names). `operator` is the
 * operator CLI: its certificate is held only by whoever runs the CLI.
 */
export const SERVICE_IDENTITIES = [
  'gateway',
  'identity',
  'adoption',
  'entitlements',
  'notifications',
  'operator',
] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

const IDENTITY = '/tap.identity.v1.IdentityService/';
const ADOPTION = '/tap.adoption.v1.AdoptionService/';
const ENTITLEMENTS = '/tap.entitlements.v1.EntitlementsService/';
const NOTIFICATIONS = '/tap.notifications.v1.NotificationsService/';

const GATEWAY: readonly ServiceIdentity[] = ['gateway'];
const OPERATOR: readonly ServiceIdentity[] = ['operator'];
const GATEWAY_OR_OPERATOR: readonly ServiceIdentity[] = ['gateway', 'operator'];
const IDENTITY_ONLY: readonly ServiceIdentity[] = ['identity'];

/**
 * Who may call every RPC, the one table (docs/security.md "RPC allowlist" is its copy for
 * readers). Enforced by every server before any handler (grpc-kit's allowlistInterceptor); a
 * server with a method missing here does not start, and a test checks every method of every proto
 * service is listed. Handlers still check the caller's token (or the operator credential) as well:
 * the allowlist says which service may relay a request, the token says whose request it is.
 */
export const RPC_ALLOWLIST = {
  // Verifiers of access tokens fetch the public keys.
  [`${IDENTITY}GetJwks`]: ['gateway', 'adoption', 'entitlements', 'notifications'],
  [`${IDENTITY}GetTenant`]: GATEWAY,
  // Sign-in and session RPCs trust their caller to have checked what it relays (a password, an
  // OpenID Provider's ID token): only the gateway.
  [`${IDENTITY}Login`]: GATEWAY,
  [`${IDENTITY}Refresh`]: GATEWAY,
  [`${IDENTITY}Logout`]: GATEWAY,
  [`${IDENTITY}RequestMagicLink`]: GATEWAY,
  [`${IDENTITY}StartSignup`]: GATEWAY,
  [`${IDENTITY}RedeemMagicLink`]: GATEWAY,
  [`${IDENTITY}SsoSignIn`]: GATEWAY,
  [`${IDENTITY}IssueClientToken`]: GATEWAY,
  // Invitations and sessions (issue #22): a user's token through the gateway; InspectInvitation and
  // AcceptInvitation carry the single-use token instead, relayed by the gateway's /auth/v2 routes.
  [`${IDENTITY}CreateInvitation`]: GATEWAY,
  [`${IDENTITY}ListInvitations`]: GATEWAY,
  [`${IDENTITY}RevokeInvitation`]: GATEWAY,
  [`${IDENTITY}InspectInvitation`]: GATEWAY,
  [`${IDENTITY}AcceptInvitation`]: GATEWAY,
  [`${IDENTITY}ListSessions`]: GATEWAY,
  [`${IDENTITY}EndSession`]: GATEWAY,
  [`${IDENTITY}EndOtherSessions`]: GATEWAY,
  [`${IDENTITY}EndMemberSessions`]: GATEWAY,
  // Tenant admins through the gateway, or the operator naming the tenant.
  [`${IDENTITY}ListJoinRequests`]: GATEWAY_OR_OPERATOR,
  [`${IDENTITY}ApproveJoinRequest`]: GATEWAY_OR_OPERATOR,
  // Team management: an OWNER's or ADMIN's token through the gateway (the actor is the token's user).
  [`${IDENTITY}ListMembers`]: GATEWAY,
  [`${IDENTITY}ChangeMemberRole`]: GATEWAY,
  [`${IDENTITY}DeactivateMember`]: GATEWAY,
  [`${IDENTITY}ReactivateMember`]: GATEWAY,
  [`${IDENTITY}RejectJoinRequest`]: GATEWAY,
  [`${IDENTITY}CreateOAuthClient`]: GATEWAY_OR_OPERATOR,
  [`${IDENTITY}ListOAuthClients`]: GATEWAY_OR_OPERATOR,
  [`${IDENTITY}DeleteOAuthClient`]: GATEWAY_OR_OPERATOR,
  [`${IDENTITY}RotateOAuthClientSecret`]: GATEWAY_OR_OPERATOR,
  // Operator RPCs: they create tenants and users, mint OWNER tokens, set passwords, rotate keys.
  [`${IDENTITY}CreateTenant`]: OPERATOR,
  [`${IDENTITY}FindTenantBySlug`]: OPERATOR,
  [`${IDENTITY}IssueAccessToken`]: OPERATOR,
  [`${IDENTITY}CreateTenantWithOwner`]: OPERATOR,
  [`${IDENTITY}CreateUser`]: OPERATOR,
  [`${IDENTITY}SetUserPassword`]: OPERATOR,
  [`${IDENTITY}ClaimJoinDomain`]: OPERATOR,
  [`${IDENTITY}RotateSigningKey`]: OPERATOR,

  [`${ADOPTION}GetState`]: GATEWAY,
  [`${ADOPTION}CompleteMilestone`]: GATEWAY,
  [`${ADOPTION}GetNextBestAction`]: GATEWAY,
  [`${ADOPTION}GetCoverage`]: GATEWAY,
  [`${ADOPTION}ListRiskSignals`]: GATEWAY,
  [`${ADOPTION}GetHealthExplanation`]: GATEWAY,
  [`${ADOPTION}GetSuccessPlan`]: GATEWAY,
  [`${ADOPTION}CreateSuccessPlan`]: GATEWAY,
  [`${ADOPTION}RenewSuccessPlan`]: GATEWAY,

  // Adoption learns tiers from entitlements' tier.changed events and never calls it.
  [`${ENTITLEMENTS}GetTier`]: GATEWAY,
  [`${ENTITLEMENTS}GetUpgradeContext`]: GATEWAY,
  [`${ENTITLEMENTS}GetUsage`]: GATEWAY,
  [`${ENTITLEMENTS}Can`]: GATEWAY,
  // Only the gateway reserves, consumes and releases quota; no back-end service spends a tenant's.
  [`${ENTITLEMENTS}Reserve`]: GATEWAY,
  [`${ENTITLEMENTS}Consume`]: GATEWAY,
  [`${ENTITLEMENTS}Release`]: GATEWAY,
  // The seat ledger of MAX_USERS: only identity makes users active, with a service token it minted
  // for the tenant (entitlements checks that token's kind and subject too).
  [`${ENTITLEMENTS}TakeSeat`]: IDENTITY_ONLY,
  [`${ENTITLEMENTS}ReleaseSeat`]: IDENTITY_ONLY,
  [`${ENTITLEMENTS}SyncSeats`]: IDENTITY_ONLY,
  // The tier is set by the operator (billing), never by a service.
  [`${ENTITLEMENTS}SetTier`]: OPERATOR,
  // The usage history is read by the console and integrators through the gateway only.
  [`${ENTITLEMENTS}GetUsageHistory`]: GATEWAY,

  // Webhooks, the events feed and the audit log: tenant users and clients through the gateway.
  [`${NOTIFICATIONS}CreateWebhookEndpoint`]: GATEWAY,
  [`${NOTIFICATIONS}ListWebhookEndpoints`]: GATEWAY,
  [`${NOTIFICATIONS}UpdateWebhookEndpoint`]: GATEWAY,
  [`${NOTIFICATIONS}DeleteWebhookEndpoint`]: GATEWAY,
  [`${NOTIFICATIONS}RotateWebhookSecret`]: GATEWAY,
  [`${NOTIFICATIONS}ListWebhookDeliveries`]: GATEWAY,
  [`${NOTIFICATIONS}ListDeliveryAttempts`]: GATEWAY,
  [`${NOTIFICATIONS}ReplayWebhookDelivery`]: GATEWAY,
  [`${NOTIFICATIONS}SendTestWebhook`]: GATEWAY,
  [`${NOTIFICATIONS}GetWebhookEndpoint`]: GATEWAY,
  [`${NOTIFICATIONS}ListEvents`]: GATEWAY,
  [`${NOTIFICATIONS}ListAuditEntries`]: GATEWAY,
  [`${NOTIFICATIONS}ExportAuditEntries`]: GATEWAY,
} as const satisfies RpcAllowlist;
