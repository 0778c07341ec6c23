import { describe, expect, it } from '@jest/globals';
import type { Tier } from '../catalogue/tier.js';
import { TIERS } from '../catalogue/tiers.js';
import { applyCounterDelta } from '../usage/counter-delta.js';
import type { CounterDelta, CounterState } from '../usage/counter-delta.js';
import { usageDeltasFor } from '../usage/event-counting.js';
import { settleEventDelta } from './event-settlement.js';
import { planReservation, resolveUnmatchedReservation } from './plan-reservation.js';
import type { ReservationOutcome } from './plan-reservation.js';
import type { Reservation, ReservationRequest } from './reservation.js';
import { planConsume, planRelease } from './reservation-transitions.js';
import type { ReservationTransition } from './reservation-transitions.js';

/**
 * A tenant's usage document in memory, applying plans exactly as the store must: one
 * conditional update per write. This pins the semantics the Mongo store reproduces.
 */
class UsageDocument {
  readonly counters = new Map<string, CounterState>();
  readonly reservations = new Map<string, Reservation>();

  counter(counter: string, period?: string): CounterState {
    return this.counters.get(`${counter}/${period ?? ''}`) ?? { used: 0, held: 0 };
  }

  apply(delta: CounterDelta): void {
    this.counters.set(
      `${delta.counter}/${delta.period ?? ''}`,
      applyCounterDelta(this.counter(delta.counter, delta.period), delta),
    );
  }

  write(transition: ReservationTransition): void {
    if (!transition.changed) return;
    this.reservations.set(transition.reservation.idempotencyKey, transition.reservation);
    transition.deltas.forEach((d) => this.apply(d));
  }

  reserve(tier: Tier, request: ReservationRequest, now: Date): ReservationOutcome {
    const plan = planReservation(tier, request, now);
    if (plan.kind === 'ATTEMPT') {
      const { used } = this.counter(plan.guard.counter, plan.guard.period);
      const fits = plan.guard.maxUsedBefore === null || used <= plan.guard.maxUsedBefore;
      if (fits && !this.reservations.has(request.idempotencyKey)) {
        this.reservations.set(request.idempotencyKey, plan.reservation);
        this.apply(plan.delta);
        return { granted: true, replayed: false, reservation: plan.reservation };
      }
    }
    const usage = { BULK_UPLOAD_ROWS_MONTH: this.counter('BULK_UPLOAD_ROWS_MONTH', '2026-11').used };
    const resolved = resolveUnmatchedReservation(
      tier,
      usage,
      request,
      this.reservations.get(request.idempotencyKey),
    );
    if ('retry' in resolved) throw new Error('no concurrency in this test');
    return resolved;
  }
}

const now = new Date('2026-11-10T10:00:00.000Z');
const bulk = (key: string, units = 300): ReservationRequest => ({
  action: 'BULK_UPLOAD',
  units,
  idempotencyKey: key,
});

describe('a reservation flow against one usage document', () => {
  it('never admits more than the limit, replays retries, and counts each unit once', () => {
    const doc = new UsageDocument();
    const tier = TIERS.SUPPLIER_FREE;
    const outcomes = ['a', 'b', 'c', 'd'].map((key) => doc.reserve(tier, bulk(key), now));
    expect(outcomes.map((o) => o.granted)).toEqual([true, true, true, false]);
    expect(outcomes[3]).toMatchObject({ decision: { details: { current: 900, available: 100 } } });

    expect(doc.reserve(tier, bulk('a'), now)).toMatchObject({ granted: true, replayed: true });
    expect(doc.counter('BULK_UPLOAD_ROWS_MONTH', '2026-11')).toEqual({ used: 900, held: 900 });

    doc.write(planConsume(doc.reservations.get('a'), now, 250));
    doc.write(planRelease(doc.reservations.get('b'), now));
    expect(doc.counter('BULK_UPLOAD_ROWS_MONTH', '2026-11')).toEqual({ used: 550, held: 300 });

    const event = {
      id: 'e-1',
      type: 'import.completed',
      tenantId: 't-1',
      occurredAt: now.toISOString(),
      subject: { importId: 'i-c' },
      data: { rows: 300, reservationKey: 'c' },
    };
    for (const delta of usageDeltasFor(event)) {
      const settlement = settleEventDelta(delta, doc.reservations.get('c'), now);
      settlement.deltas.forEach((d) => doc.apply(d));
      if (settlement.reservation) doc.reservations.set('c', settlement.reservation);
    }
    expect(doc.counter('BULK_UPLOAD_ROWS_MONTH', '2026-11')).toEqual({ used: 550, held: 0 });

    const again = planConsume(doc.reservations.get('c'), now);
    expect(again.changed).toBe(false);
    expect(doc.reserve(tier, bulk('e', 450), now).granted).toBe(true);
    expect(doc.reserve(tier, bulk('f', 1), now).granted).toBe(false);
  });
});
