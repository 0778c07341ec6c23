import { MILESTONE_DEFINITIONS } from '../catalogue/catalogue-data.js';
import type { EventKind } from '../catalogue/event-kinds.js';
import type { TimedFact } from '../facts/fact-log.js';
import {
  ENGAGEMENT_DAILY_CAP,
  ENGAGEMENT_HORIZON_MS,
  ENGAGEMENT_VALUES,
  EXCHANGE_KINDS,
  FAILED_RUN_KINDS,
  FRESHNESS_WINDOW_MS,
  RESPONSIVENESS_HORIZON_MS,
  SUCCESSFUL_RUN_KINDS,
} from '../health/health-model.js';
import { RISK_RULES, riskFactExpiresAt } from '../risk/risk-rules.js';
import { RISK_KINDS } from '../risk/risk-signal.js';
import { DAY_MS } from '../time.js';

/**
 * Which facts of a slot survive: the earliest `n`, the latest `n`, or both ends (`n` of each),
 * in the canonical (occurredAt, id, type) order every rule reads.
 */
export type Keep = 'first' | 'last' | 'ends';

/** One place a fact is kept, and until when it matters (null: for the tenant's whole life). */
export interface SlotClaim {
  readonly key: string;
  readonly keep: Keep;
  readonly n: number;
  /** The slot may be dropped once `now` passes this instant: no rule looks that far back any more. */
  readonly expiresAt: number | null;
}

/** Facts per risk subject and UTC day kept at each end; a subject with more in a day is judged on its ends. */
export const RISK_FACTS_PER_DAY_END = 4;
/** Exchange facts kept per connection and UTC day (the earliest; network density weighs them). */
export const EXCHANGES_PER_DAY = 16;
/** Import and integration runs kept per kind and UTC day for the 7-day success rate. */
export const RUNS_PER_DAY = 64;
/** Exchanges older than this are dropped: each weighs under 1/64 of a fresh one (30-day half-life). */
export const EXCHANGE_RETENTION_MS = 180 * DAY_MS;

// The `targetCount`-th trigger completes a milestone, so the earliest that many of a kind are
// all the milestones ever read of it; a start event needs only its first.
const FIRST_PER_KIND: ReadonlyMap<EventKind, number> = (() => {
  const counts = new Map<EventKind, number>();
  for (const d of MILESTONE_DEFINITIONS) {
    counts.set(d.triggerEvent, Math.max(counts.get(d.triggerEvent) ?? 1, d.targetCount));
  }
  return counts;
})();

// Exchanges and their answers, for responsiveness (first answer per ref, each opening per ref).
const OPENED: readonly (readonly [EventKind, string])[] = [
  ['data_request.sent', 'requestId'],
  ['connection.invited', 'connectionId'],
];
const ANSWERED: readonly { kinds: readonly EventKind[]; ref: string; group: string }[] = [
  { kinds: ['data_request.answered'], ref: 'requestId', group: 'request' },
  { kinds: ['connection.accepted', 'connection.removed'], ref: 'connectionId', group: 'invitation' },
];

const day = (at: number): number => Math.floor(at / DAY_MS);
const forever = (key: string, keep: Keep, n: number): SlotClaim => ({ key, keep, n, expiresAt: null });

function milestoneClaims(fact: TimedFact): SlotClaim[] {
  const claims = [forever(`k|${fact.type}`, 'first', FIRST_PER_KIND.get(fact.type) ?? 1)];
  const key = fact.subject['milestoneKey'];
  if (fact.type === 'milestone.completed' && key !== undefined) claims.push(forever(`m|${key}`, 'first', 1));
  return claims;
}

// A fact can reach a connection through its own connectionId or through the viewer's tenant,
// resolved against the final partner index at read time; each route keeps its own latest.
function connectionClaims(fact: TimedFact, now: number): SlotClaim[] {
  const claims: SlotClaim[] = [];
  const direct = fact.subject['connectionId'];
  const viewer = fact.data['viewerTenantId'];
  const partner = fact.data['partnerTenantId'];
  const route = direct !== undefined ? `c|${direct}` : viewer !== undefined ? `v|${viewer}` : null;
  const linksPartner = fact.type === 'connection.invited' || fact.type === 'connection.accepted';
  if (linksPartner && direct !== undefined && partner !== undefined)
    claims.push(forever(`p|${partner}`, 'last', 1));
  // Live connections (the coverage grid's): the latest acceptance or removal of each.
  if (fact.type === 'connection.accepted' || fact.type === 'connection.removed') {
    if (direct !== undefined) claims.push(forever(`l|${direct}`, 'last', 1));
    else if (fact.type === 'connection.accepted') claims.push(forever(`l|#${fact.id}`, 'first', 1));
  }
  if (route === null) return claims;
  if (fact.type === 'connection.accepted' || fact.type === 'connection.removed') {
    claims.push(forever(`n|${route}`, 'last', 1));
  }
  if (fact.type === 'product.viewed') claims.push(forever(`pv|${route}`, 'first', 1));
  if (EXCHANGE_KINDS.includes(fact.type)) {
    const expiresAt = (day(fact.at) + 1) * DAY_MS + EXCHANGE_RETENTION_MS;
    if (expiresAt > now)
      claims.push({ key: `x|${route}|${day(fact.at)}`, keep: 'first', n: EXCHANGES_PER_DAY, expiresAt });
  }
  return claims;
}

function healthClaims(fact: TimedFact, now: number): SlotClaim[] {
  const claims: SlotClaim[] = [];
  const engagementEnds = (day(fact.at) + 1) * DAY_MS + ENGAGEMENT_HORIZON_MS;
  if (ENGAGEMENT_VALUES[fact.type] > 0 && engagementEnds > now) {
    claims.push({
      key: `e|${fact.type}|${day(fact.at)}`,
      keep: 'first',
      n: ENGAGEMENT_DAILY_CAP,
      expiresAt: engagementEnds,
    });
  }
  const success = SUCCESSFUL_RUN_KINDS.includes(fact.type);
  if (success || FAILED_RUN_KINDS.includes(fact.type)) {
    claims.push(forever('f|any', 'first', 1));
    if (success) claims.push(forever('f|good', 'last', 1));
    const windowEnds = (day(fact.at) + 1) * DAY_MS + FRESHNESS_WINDOW_MS;
    if (windowEnds > now)
      claims.push({
        key: `f|${fact.type}|${day(fact.at)}`,
        keep: 'first',
        n: RUNS_PER_DAY,
        expiresAt: windowEnds,
      });
  }
  // Responsiveness reads openings of the last RESPONSIVENESS_HORIZON_MS only, and an answer comes
  // after its opening: both leave with the horizon, so requests never pile up over the years.
  const judgedUntil = (day(fact.at) + 1) * DAY_MS + RESPONSIVENESS_HORIZON_MS;
  if (judgedUntil > now) {
    for (const [kind, ref] of OPENED) {
      if (fact.type === kind)
        claims.push({
          key: `o|${kind}|${fact.subject[ref] ?? `#${fact.id}`}`,
          keep: 'ends',
          n: 1,
          expiresAt: judgedUntil,
        });
    }
    for (const answer of ANSWERED) {
      const ref = fact.subject[answer.ref];
      if (ref !== undefined && answer.kinds.includes(fact.type))
        claims.push({ key: `a|${answer.group}|${ref}`, keep: 'first', n: 1, expiresAt: judgedUntil });
    }
  }
  return claims;
}

// A risk timer only changes state at a fact, and within one UTC day no grace period (24 h or
// more) can run out, so a subject's first and last facts of each day replay every episode. A day
// leaves with the risk history (RISK_HISTORY_MS), when detection stops reading it.
function riskClaims(fact: TimedFact, now: number): SlotClaim[] {
  const claims: SlotClaim[] = [];
  const expiresAt = riskFactExpiresAt(fact.at);
  if (expiresAt <= now) return claims;
  for (const kind of RISK_KINDS) {
    const rule = RISK_RULES[kind];
    if (
      !rule.arms.includes(fact.type) &&
      !rule.rearms.includes(fact.type) &&
      !rule.clears.includes(fact.type)
    )
      continue;
    const subject = rule.subject === 'TENANT' ? '' : fact.subject[rule.subject];
    if (subject !== undefined)
      claims.push({
        key: `r|${kind}|${subject}|${day(fact.at)}`,
        keep: 'ends',
        n: RISK_FACTS_PER_DAY_END,
        expiresAt,
      });
  }
  return claims;
}

/**
 * Every slot a fact must be kept in for the rules to give the same answer from the summary as
 * from the whole history (see tenant-summary.ts for when that holds exactly). Slots already
 * expired at `now` are not claimed.
 */
export function slotClaims(fact: TimedFact, now: number): readonly SlotClaim[] {
  return [
    ...milestoneClaims(fact),
    ...connectionClaims(fact, now),
    ...healthClaims(fact, now),
    ...riskClaims(fact, now),
  ];
}
