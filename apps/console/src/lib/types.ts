import type { operations } from '@tap/client';

/**
 * The shapes the console reads, taken from @tap/client's types, which are generated from the
 * gateway's OpenAPI document: a route whose response schema changes changes these, and the
 * console's type check fails where a page relies on the old shape (they used to be written by
 * hand and could drift from the routes unnoticed).
 */

/** The JSON body of an operation's answer with `status`. */
type BodyOf<K extends keyof operations, S extends number> =
  operations[K]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

/**
 * The `data` of an operation's envelope for `status` (200 unless said); of the bodies that carry
 * one, where an answer has several (a magic link's "pending approval" has none).
 */
type DataOf<K extends keyof operations, S extends number = 200> = Extract<
  BodyOf<K, S>,
  { data: unknown }
>['data'];

export type AdoptionState = DataOf<'getAdoptionState'>;
export type Milestone = AdoptionState['milestones'][number];
export type UpgradeContext = DataOf<'getUpgradeContext'>;
export type TierRef = UpgradeContext['currentTier'];
export type NextBestAction = DataOf<'getNextBestAction'>;
export type HealthExplanation = DataOf<'getHealthExplanation'>;
export type CoverageCell = DataOf<'getCoverage'>['cells'][number];
export type RiskSignal = DataOf<'listRiskSignals'>['signals'][number];
export type SuccessPlan = NonNullable<DataOf<'getSuccessPlan'>>;
export type UsageReport = DataOf<'getUsage'>;
export type UsageHistory = DataOf<'getUsageHistory'>;
export type OAuthClient = DataOf<'listOAuthClients'>['clients'][number];
export type JoinRequest = DataOf<'listJoinRequests'>['requests'][number];
export type Tenant = DataOf<'getTenant'>;
/** The signed-in user as the browser sign-ins answer it (password, magic link, SSO). */
export type SessionUser = DataOf<'redeemMagicLink'>['user'];

/* Team, invitations and sessions (issue #22). */
export type Member = DataOf<'listMembers'>['members'][number];
export type Role = Member['role'];
export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'MEMBER'];
export type Invitation = DataOf<'listInvitations'>['invitations'][number];
/** What an invitation token stands for, shown before it is spent. */
export type InvitationPreview = DataOf<'inspectInvitation'>['invitation'];
export type AcceptedInvitation = DataOf<'acceptInvitation'>;
export type Session = DataOf<'listSessions'>['sessions'][number];

/* Webhooks, the events feed and the audit log (issue #24). */
export type Webhook = DataOf<'listWebhooks'>['webhooks'][number];
export type CreatedWebhook = DataOf<'createWebhook', 201>;
/** The outbound event types an endpoint may subscribe to, as the contract lists them. */
export type WebhookEventType = NonNullable<
  operations['createWebhook']['requestBody']
>['content']['application/json']['types'][number];
export type WebhookDelivery = DataOf<'listWebhookDeliveries'>['deliveries'][number];
export type DeliveryAttempt = DataOf<'listWebhookDeliveryAttempts'>['attempts'][number];
export type RotatedWebhookSecret = DataOf<'rotateWebhookSecret'>;
export type AuditPage = DataOf<'listAuditEvents'>;
export type AuditEntry = AuditPage['entries'][number];
export type EventsPage = DataOf<'listEvents'>;
export type FeedEvent = EventsPage['events'][number];
