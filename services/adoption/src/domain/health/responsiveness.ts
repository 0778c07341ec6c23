import type { EventKind } from '../catalogue/event-kinds.js';
import type { FactLog } from '../facts/fact-log.js';
import { factsOfType } from '../facts/fact-log.js';
import { decayWeight } from '../time.js';
import type { ComponentScore, Contribution } from './component-score.js';
import { toPercent, topEventIds } from './component-score.js';
import {
  INVITATION_SLA_MS,
  REQUEST_SLA_MS,
  RESPONSIVENESS_HALF_LIFE_MS,
  RESPONSIVENESS_HORIZON_MS,
} from './health-model.js';

interface Exchange {
  readonly opened: EventKind;
  readonly answered: readonly EventKind[];
  readonly ref: string;
  readonly slaMs: number;
  /** Whether an answer that closes it counts as a success (a removal closes, but is no acceptance). */
  readonly successes: readonly EventKind[];
}

const REQUESTS: Exchange = {
  opened: 'data_request.sent',
  answered: ['data_request.answered'],
  ref: 'requestId',
  slaMs: REQUEST_SLA_MS,
  successes: ['data_request.answered'],
};
const INVITATIONS: Exchange = {
  opened: 'connection.invited',
  answered: ['connection.accepted', 'connection.removed'],
  ref: 'connectionId',
  slaMs: INVITATION_SLA_MS,
  successes: ['connection.accepted'],
};

interface Ratio {
  readonly onTime: number;
  readonly due: number;
  readonly contributions: readonly Contribution[];
}

/**
 * Recency-weighted share of due items answered within their SLA. An item is due once answered
 * or once its SLA has run out; items still inside their SLA are not judged yet.
 */
function answeredOnTime(log: FactLog, exchange: Exchange, now: number): Ratio | null {
  const answers = new Map<string, { at: number; success: boolean }>();
  for (const fact of log.facts) {
    const ref = fact.subject[exchange.ref];
    if (ref === undefined || answers.has(ref) || !exchange.answered.includes(fact.type)) continue;
    answers.set(ref, { at: fact.at, success: exchange.successes.includes(fact.type) });
  }
  let onTime = 0;
  let due = 0;
  const contributions: Contribution[] = [];
  const opened = new Set<string>();
  for (const fact of factsOfType(log, exchange.opened)) {
    const ref = fact.subject[exchange.ref] ?? fact.id;
    if (opened.has(ref) || now - fact.at > RESPONSIVENESS_HORIZON_MS) continue;
    opened.add(ref);
    const answer = answers.get(ref);
    if (answer === undefined && now - fact.at < exchange.slaMs) continue;
    const weight = decayWeight(now - fact.at, RESPONSIVENESS_HALF_LIFE_MS);
    const inTime = answer !== undefined && answer.success && answer.at - fact.at <= exchange.slaMs;
    due += weight;
    if (inTime) onTime += weight;
    contributions.push({ id: fact.id, weight });
  }
  return due === 0 ? null : { onTime, due, contributions };
}

/**
 * How promptly the tenant's data requests and connection invitations get answered: the mean of
 * the two on-time ratios that have anything due. Absent when nothing is due yet.
 */
export function responsiveness(log: FactLog, now: number): ComponentScore {
  const ratios = [answeredOnTime(log, REQUESTS, now), answeredOnTime(log, INVITATIONS, now)];
  const present = ratios.filter((r): r is Ratio => r !== null);
  if (present.length === 0) {
    return {
      code: 'RESPONSIVENESS',
      present: false,
      value: 0,
      eventIds: [],
      reason: 'No data requests or invitations are due yet, so responsiveness is left out of the score.',
    };
  }
  const mean = present.reduce((sum, r) => sum + r.onTime / r.due, 0) / present.length;
  const [requests, invitations] = ratios;
  const describe = (label: string, r: Ratio | null | undefined): string =>
    r === null || r === undefined
      ? `no ${label} due`
      : `${toPercent(r.onTime / r.due)}% of ${label} answered in time`;
  return {
    code: 'RESPONSIVENESS',
    present: true,
    value: toPercent(mean),
    eventIds: topEventIds(present.flatMap((r) => r.contributions)),
    reason: `${describe('data requests', requests)}; ${describe('invitations', invitations)} (last 90 days, recent ones weigh more).`,
  };
}
