import { nameBasedId, type DomainEvent } from '@tap/contracts';
import type { KeyedLock } from '@tap/runtime';
import { getTier, isMonthlyLimit, LIMIT_KEYS, monthlyPeriod, readCount, utcDay } from '../domain/index.js';
import { thresholdCrossings, type LimitReading } from '../domain/announcements/usage-thresholds.js';
import type { DomainAnnouncementsRepository, DomainMark } from './ports/domain-announcements-repository.js';
import type { TierAssignmentsRepository } from './ports/tier-assignments-repository.js';
import type { UsageHistoryRepository } from './ports/usage-history-repository.js';
import type { UsageRepository } from './ports/usage-repository.js';
import { snapshotOf } from './usage-snapshot.js';

/** Tenants one relay pass looks at, at most. */
export const DOMAIN_ANNOUNCEMENT_BATCH_SIZE = 100;

export interface DomainAnnounceDeps {
  readonly tiers: TierAssignmentsRepository;
  readonly usage: Pick<UsageRepository, 'read'>;
  readonly announcements: DomainAnnouncementsRepository;
  /** Where the day's API request count is (copied from the gateway's tally every minute). */
  readonly history: Pick<UsageHistoryRepository, 'months'>;
  /** Rejects when the stream did not confirm the event. */
  readonly publish: (event: DomainEvent) => Promise<unknown>;
  /** True when the contract refuses the event (it never will pass). */
  readonly isRefused: (error: unknown) => boolean;
  readonly locks: KeyedLock;
  readonly now: () => Date;
  readonly logger: {
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
}

/** API requests of the tenant stored for the UTC day `day` (`YYYY-MM-DD`); 0 before the first copy. */
async function apiRequestsOn(deps: DomainAnnounceDeps, tenantId: string, day: string): Promise<number> {
  const [month] = await deps.history.months(tenantId, 'API_REQUESTS_DAY', [day.slice(0, 7)]);
  return month?.days[day.slice(8, 10)]?.API_REQUESTS_DAY ?? 0;
}

/**
 * The tenant's domain events still to publish: tier.changed when its tier is not the one
 * announced, usage.threshold_* for each threshold crossed since. Gauges count their thresholds
 * per tier assignment (a new tier is a new period), the monthly counter per UTC month, the
 * daily API quota per UTC day (a new day starts again from level 0, without a `cleared`).
 */
async function eventsOf(deps: DomainAnnounceDeps, tenantId: string) {
  const now = deps.now();
  const assignment = await deps.tiers.findOrCreate(tenantId, now);
  const tier = getTier(assignment.tierCode);
  const snapshot = snapshotOf((await deps.usage.read(tenantId)).doc, now);
  const tierSince = assignment.updatedAt.toISOString();
  const monthStart = `${monthlyPeriod(now)}-01T00:00:00.000Z`;
  const readings: LimitReading[] = LIMIT_KEYS.map((key) => ({
    limitKey: key,
    current: readCount(snapshot, key),
    limit: tier.limits[key],
    periodStart: isMonthlyLimit(key) ? monthStart : tierSince,
  }));
  const today = utcDay(now);
  readings.push({
    limitKey: 'API_REQUESTS_DAY',
    current: await apiRequestsOn(deps, tenantId, today),
    limit: tier.rateLimits.API_REQUESTS_DAY,
    periodStart: `${today}T00:00:00.000Z`,
  });
  const announced = await deps.announcements.announced(tenantId);
  const { crossings, next } = thresholdCrossings(announced.levels, readings);
  const occurredAt = now.toISOString();
  const events: DomainEvent[] = [];
  if (announced.tierCode !== tier.code)
    events.push({
      id: nameBasedId(`tap/entitlements/domain/tier.changed\n${tenantId}\n${tier.code}\n${tierSince}`),
      type: 'tier.changed',
      tenantId,
      occurredAt: tierSince,
      subject: {},
      data: { from: announced.tierCode, to: tier.code, tierName: tier.name },
    });
  // The operator's change also goes to the tenant's audit log, derived like tier.changed: one
  // entry per announced change (two changes between two looks make one entry, from the first
  // tier to the last).
  if (announced.tierCode !== tier.code && assignment.byOperator)
    events.push({
      id: nameBasedId(`tap/entitlements/audit/tier.changed\n${tenantId}\n${tier.code}\n${tierSince}`),
      type: 'audit.entry_recorded',
      tenantId,
      occurredAt: tierSince,
      subject: {},
      data: {
        actor: { type: 'operator' },
        action: 'tier.changed',
        target: { type: 'tenant', id: tenantId },
        outcome: 'SUCCESS',
        change: { ...(announced.tierCode ? { from: announced.tierCode } : {}), to: tier.code },
      },
    });
  for (const c of crossings)
    events.push({
      id: nameBasedId(
        `tap/entitlements/usage-threshold\n${tenantId}\n${c.limitKey}\n${c.periodStart}\n${c.crossing}`,
      ),
      type: c.type,
      tenantId,
      occurredAt,
      subject: { limitKey: c.limitKey },
      data: {
        thresholdPercent: c.thresholdPercent,
        current: c.current,
        limit: c.limit,
        periodStart: c.periodStart,
      },
    });
  return { events, state: { tierCode: tier.code, levels: next } };
}

/** Publishes what is still to be announced of a marked tenant, then settles its mark; how many events. */
export function announceDomainEvents(deps: DomainAnnounceDeps, mark: DomainMark): Promise<number> {
  return deps.locks.run(`domain:${mark.tenantId}`, async () => {
    const { events, state } = await eventsOf(deps, mark.tenantId);
    for (const event of events) {
      try {
        await deps.publish(event);
      } catch (error) {
        if (!deps.isRefused(error)) throw error;
        deps.logger.error(
          { err: error, eventId: event.id, type: event.type },
          'domain event refused by the contract',
        );
      }
    }
    await deps.announcements.settle(mark, state);
    return events.length;
  });
}

/**
 * What one pass did: `tenants` marked tenants looked at, `events` published for them, `failed`
 * tenants left for the next pass. A tenant is marked by every usage write and by the minute's copy
 * of its API requests, so most looks find nothing new to announce: many tenants, no events, is the
 * normal quiet state, not a backlog.
 */
export interface DomainPassReport {
  readonly tenants: number;
  readonly events: number;
  readonly failed: number;
}

/** One relay pass, oldest mark first, until the first failure (the bus is most likely down). */
export async function runDomainAnnouncementPass(deps: DomainAnnounceDeps): Promise<DomainPassReport> {
  const marks = await deps.announcements.pending(DOMAIN_ANNOUNCEMENT_BATCH_SIZE);
  const report = { tenants: marks.length, events: 0, failed: 0 };
  for (const mark of marks) {
    try {
      report.events += await announceDomainEvents(deps, mark);
    } catch (error) {
      report.failed += 1;
      deps.logger.warn({ err: error, tenantId: mark.tenantId }, 'domain events still to be announced');
      break;
    }
  }
  return report;
}
