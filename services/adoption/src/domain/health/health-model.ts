import type { EventKind } from '../catalogue/event-kinds.js';
import type { Chapter } from '../catalogue/milestone-definition.js';
import type { MaturityRung } from '../state/adoption-state.js';
import { DAY_MS } from '../time.js';

/** Version of the health model (weights, targets, thresholds). Bump on any change below. */
export const HEALTH_MODEL_VERSION = 1;

/** The health components, in the order explanations list them. */
export const HEALTH_COMPONENTS = [
  'JOURNEY_PROGRESS',
  'ENGAGEMENT',
  'NETWORK',
  'DATA_FRESHNESS',
  'RESPONSIVENESS',
] as const;
/** A health component code. */
export type HealthComponentCode = (typeof HEALTH_COMPONENTS)[number];

/** Nominal weights; absent components drop out and the rest are renormalised. */
export const COMPONENT_WEIGHTS: Readonly<Record<HealthComponentCode, number>> = {
  JOURNEY_PROGRESS: 0.3,
  ENGAGEMENT: 0.25,
  NETWORK: 0.2,
  DATA_FRESHNESS: 0.15,
  RESPONSIVENESS: 0.1,
};

/** Later chapters weigh more in journey progress: they take more effort and create more value. */
export const CHAPTER_WEIGHTS: Readonly<Record<Chapter, number>> = {
  1: 1,
  2: 1,
  3: 2,
  4: 2,
  5: 3,
  6: 3,
  7: 3,
};

export const ENGAGEMENT_HALF_LIFE_MS = 14 * DAY_MS;
/** Facts older than four half-lives contribute under 7% and are ignored outright. */
export const ENGAGEMENT_HORIZON_MS = 4 * ENGAGEMENT_HALF_LIFE_MS;
/** At most this many facts of one kind count per UTC day, so a bulk burst cannot buy health. */
export const ENGAGEMENT_DAILY_CAP = 5;

/** Points one fact of each kind is worth when fresh. Failures and removals are worth nothing. */
export const ENGAGEMENT_VALUES: Readonly<Record<EventKind, number>> = {
  'company.profile_completed': 2,
  'user.invited': 1,
  'user.joined': 2,
  'product.created': 3,
  'product.updated': 2,
  'product.archived': 0,
  'product.viewed': 0.5,
  'product_version.published': 3,
  'connection.invited': 2,
  'connection.accepted': 3,
  'connection.removed': 0,
  'data_request.sent': 2,
  'data_request.answered': 3,
  'import.completed': 3,
  'import.failed': 0,
  'integration.succeeded': 1,
  'integration.failed': 0,
  'trace.recorded': 2,
  'passport.published': 3,
  'policy.published': 2,
  'policy.viewed': 0.5,
  'cascade.started': 3,
  'cascade.completed': 3,
  'data_set.expected': 2,
  'milestone.completed': 1,
};

/** Decayed engagement points that score 100; more is expected of tenants further up the ladder. */
export const ENGAGEMENT_TARGETS: Readonly<Record<MaturityRung, number>> = {
  ONBOARDED: 8,
  CONNECTED: 12,
  EXCHANGING: 16,
  TRACED: 20,
  STRATEGIC: 24,
};

export const NETWORK_HALF_LIFE_MS = 30 * DAY_MS;
/** Decayed exchange weight from which an edge is active: one exchange in the last 30 days. */
export const ACTIVE_EDGE_THRESHOLD = 0.5;
/** Facts that count as data exchanged over a connection (when they carry its connectionId). */
export const EXCHANGE_KINDS: readonly EventKind[] = [
  'product.viewed',
  'data_request.sent',
  'data_request.answered',
  'policy.viewed',
  'cascade.started',
  'cascade.completed',
  'data_set.expected',
];
/** Active partners that score full marks on the breadth half of the network component. */
export const NETWORK_TARGET_EDGES: Readonly<Record<MaturityRung, number>> = {
  ONBOARDED: 1,
  CONNECTED: 2,
  EXCHANGING: 3,
  TRACED: 5,
  STRATEGIC: 8,
};

export const FRESHNESS_WINDOW_MS = 7 * DAY_MS;
export const FRESHNESS_HALF_LIFE_MS = 7 * DAY_MS;
export const SUCCESSFUL_RUN_KINDS: readonly EventKind[] = ['import.completed', 'integration.succeeded'];
export const FAILED_RUN_KINDS: readonly EventKind[] = ['import.failed', 'integration.failed'];

export const REQUEST_SLA_MS = 7 * DAY_MS;
export const INVITATION_SLA_MS = 14 * DAY_MS;
export const RESPONSIVENESS_HALF_LIFE_MS = 30 * DAY_MS;
export const RESPONSIVENESS_HORIZON_MS = 90 * DAY_MS;

/** Band thresholds: enter and exit differ so a score hovering at one line does not flap. */
export const BAND_THRESHOLDS = {
  healthyEnter: 72,
  healthyExit: 65,
  atRiskEnter: 45,
  atRiskExit: 52,
} as const;
/** Every tenant is ONBOARDING this long after its first fact... */
export const ONBOARDING_MIN_MS = 30 * DAY_MS;
/** ...and up to this long while it is still on rung ONBOARDED. */
export const ONBOARDING_MAX_MS = 45 * DAY_MS;

/** Event ids listed per component in the explanation. */
export const MAX_EXPLAINING_EVENTS = 5;

/** Component names as a tenant reads them. */
export const COMPONENT_LABELS: Readonly<Record<HealthComponentCode, string>> = {
  JOURNEY_PROGRESS: 'Journey progress',
  ENGAGEMENT: 'Engagement',
  NETWORK: 'Network',
  DATA_FRESHNESS: 'Data freshness',
  RESPONSIVENESS: 'Responsiveness',
};
