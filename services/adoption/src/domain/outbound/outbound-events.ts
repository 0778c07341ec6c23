import type { SignalTransition } from '../risk/active-signals.js';
import { nameBasedUuid } from '../risk/signal-id.js';
import { HEALTH_BANDS, MATURITY_RUNGS, type HealthBand, type MaturityRung } from '../state/adoption-state.js';

/**
 * An outbound (domain) event as adoption writes it into its outbox: the envelope of
 * proto/tap/events/v1/domain-event.schema.json, published on the domain stream by the relay.
 */
export interface OutboundEvent {
  readonly id: string;
  readonly type:
    | 'adoption.rung_changed'
    | 'adoption.health_band_changed'
    | 'risk_signal.opened'
    | 'risk_signal.escalated'
    | 'risk_signal.resolved'
    | 'audit.entry_recorded';
  readonly tenantId: string;
  readonly occurredAt: string;
  readonly subject: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Namespace of the ids of adoption's outbound events (fixed forever: changing it changes every id). */
export const OUTBOUND_EVENT_NAMESPACE = '5b0d7c1e-5f0a-4f7e-9d43-2a8c6e1b9f27';

/** Rung and band as the stored projection had them (null: not known, no event about it). */
export interface ProjectedLevels {
  readonly rung: MaturityRung | null;
  readonly band: HealthBand | null;
}

/** A tenant never recomputed stands where the empty recompute puts it. */
export const INITIAL_LEVELS: { readonly rung: MaturityRung; readonly band: HealthBand } = {
  rung: MATURITY_RUNGS[0],
  band: HEALTH_BANDS[0],
};

/** What one winning write changed, as the write knows it before it is stored. */
export interface WriteChange {
  readonly tenantId: string;
  readonly previous: ProjectedLevels;
  readonly next: {
    readonly rung: MaturityRung;
    readonly band: HealthBand;
    readonly healthScore: number | null;
  };
  readonly transitions: readonly SignalTransition[];
  /**
   * What fences the write (the document's version and drift revision as read): with the change
   * itself it names each event, so the same change computed twice from the same read has the same
   * id (the stream stores it once) and two different writes never share one.
   */
  readonly fence: string;
  readonly at: Date;
}

const eventId = (change: WriteChange, ...parts: string[]): string =>
  nameBasedUuid(OUTBOUND_EVENT_NAMESPACE, [change.tenantId, change.fence, ...parts].join('\n'));

/**
 * The outbound events of a write: the rung and the band when the stored projection had another
 * (compared with the projection the write stores), and one event per ladder move of a risk signal.
 * Pure: the same change gives the same events, ids included.
 */
export function writeEvents(change: WriteChange): readonly OutboundEvent[] {
  const occurredAt = change.at.toISOString();
  const base = { tenantId: change.tenantId, occurredAt };
  const events: OutboundEvent[] = [];
  const { previous, next } = change;
  if (previous.rung !== null && previous.rung !== next.rung)
    events.push({
      ...base,
      id: eventId(change, 'adoption.rung_changed', previous.rung, next.rung),
      type: 'adoption.rung_changed',
      subject: {},
      data: { from: previous.rung, to: next.rung },
    });
  if (previous.band !== null && previous.band !== next.band)
    events.push({
      ...base,
      id: eventId(change, 'adoption.health_band_changed', previous.band, next.band),
      type: 'adoption.health_band_changed',
      subject: {},
      data: { from: previous.band, to: next.band, healthScore: next.healthScore },
    });
  for (const t of change.transitions) {
    const event = signalEvent(change, t, base);
    if (event !== null) events.push(event);
  }
  return events;
}

function signalEvent(
  change: WriteChange,
  t: SignalTransition,
  base: { tenantId: string; occurredAt: string },
): OutboundEvent | null {
  const id = eventId(change, 'risk_signal', t.signalId, t.from ?? '', t.to);
  const subject = { riskSignalId: t.signalId };
  if (t.to === 'RESOLVED')
    // A signal first seen already resolved was never announced open: nothing to resolve.
    return t.from === null
      ? null
      : { ...base, id, type: 'risk_signal.resolved', subject, data: { kind: t.kind } };
  // A signal seen for the first time, or one that comes back after it was resolved, opens.
  if (t.from === null || t.from === 'RESOLVED')
    return { ...base, id, type: 'risk_signal.opened', subject, data: { kind: t.kind } };
  return {
    ...base,
    id,
    type: 'risk_signal.escalated',
    subject,
    data: { kind: t.kind, from: t.from, to: t.to, escalatedToHuman: t.to === 'ESCALATED' },
  };
}

/** Who did something an audit entry records: from the verified caller's claims, never a credential. */
export interface AuditActor {
  readonly type: 'user' | 'client' | 'operator' | 'system';
  readonly id: string;
}

/** An `audit.entry_recorded` of a change adoption made for a caller (always a success: failures change nothing). */
export function auditEvent(input: {
  readonly id: string;
  readonly tenantId: string;
  readonly actor: AuditActor;
  readonly action: 'milestone.completed_manually' | 'success_plan.created' | 'success_plan.renewed';
  readonly target: { readonly type: 'milestone' | 'success_plan'; readonly id: string };
  readonly at: Date;
  /** The gateway's id of the request (absent: a call that came without one). */
  readonly requestId?: string;
}): OutboundEvent {
  return {
    id: input.id,
    type: 'audit.entry_recorded',
    tenantId: input.tenantId,
    occurredAt: input.at.toISOString(),
    subject: {},
    data: {
      actor: { type: input.actor.type, id: input.actor.id },
      action: input.action,
      target: { type: input.target.type, id: input.target.id },
      outcome: 'SUCCESS',
      ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
    },
  };
}

/**
 * How many outbound events a tenant's document holds unpublished at most. The relay drains them
 * within seconds while the bus is up; a bus down for long fills it, and from then on a write keeps
 * its change but drops its new events (counted and logged): the stored projection stays the truth,
 * the feed misses those moves.
 */
export const MAX_PENDING_EVENTS = 200;

/** The events a write may add to an outbox holding `pending`, and how many it must drop. */
export function boundedEvents(
  pending: number,
  events: readonly OutboundEvent[],
): { readonly kept: readonly OutboundEvent[]; readonly dropped: number } {
  const room = Math.max(0, MAX_PENDING_EVENTS - pending);
  return { kept: events.slice(0, room), dropped: Math.max(0, events.length - room) };
}
