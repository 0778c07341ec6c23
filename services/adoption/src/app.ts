import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/nats-core';
import { contracts, type ProductEvent } from '@tap/contracts';
import { readModelNoticeSubject, createChangeChannel } from '@tap/events';
import { createGrpcServer, type GrpcServer, type ServiceTls } from '@tap/grpc-kit';
import { revocationCheckingVerifier, RPC_ALLOWLIST, type SessionRevocations } from '@tap/service-auth';
import {
  createVersionedCache,
  HEARD_READ_MODEL_TTL_MS,
  NOTICED_READ_MODEL_TTL_MS,
  type VersionedCache,
} from '@tap/runtime';
import type { Logger } from '@tap/telemetry';
import type { TokenVerifier } from '@tap/tokens';
import type { Db } from 'mongodb';
import {
  DEFAULT_DRIFT_INTERVAL_MS,
  DEFAULT_HOUSEKEEPING_INTERVAL_MS,
  DEFAULT_DRIFT_LEASE_MS,
  DEFAULT_DRIFT_RESCAN_MS,
  DEFAULT_OUTBOX_GRACE_MS,
  DEFAULT_OUTBOX_INTERVAL_MS,
  type AdoptionConfig,
} from './config.js';
import type { SignalTransition, SuccessPlan } from './domain/index.js';
import type { DriftPassReport } from './operations/run-drift-pass.js';
import { driftWatch, type DriftWatchJob } from './jobs/drift-watch-job.js';
import {
  startProductConsumer,
  type AdoptionConsumer,
  type ConsumerOptions,
} from './events/product-consumer.js';
import { adoptionHandlers } from './grpc/adoption-handlers.js';
import { completionOutbox, detectedCompletionOutbox } from './operations/completion-outbox.js';
import type { OutboxPassReport } from './operations/relay-outbox.js';
import { outboxRelay, type OutboxRelayJob } from './jobs/outbox-relay-job.js';
import { housekeeping, type HousekeepingJob } from './jobs/housekeeping-job.js';
import type { HousekeepingReport } from './operations/housekeep.js';
import { orphanParts } from './store/orphan-parts.js';
import type { PublishDomainEvent, StoredProjection } from './ports.js';
import { eventOutbox } from './operations/event-outbox.js';
import { aggregatesRepository } from './store/aggregates-repository.js';
import { lastWrittenAggregates } from './store/last-written-aggregates.js';
import { projectionReader } from './store/projection-reader.js';
import { scheduleUnprojected } from './store/migrate-projections.js';
import { notifyingAggregates, notifyingDrift } from './store/notifying-aggregates.js';
import { notifyingPlans } from './store/notifying-plans.js';
import { driftRepository } from './store/drift-repository.js';
import { ensureAdoptionIndexes } from './store/indexes.js';
import { itemMarkersRepository } from './store/item-markers-repository.js';
import { migrateFactArrays } from './store/migrate-fact-arrays.js';
import { migrateInlineSummaries } from './store/migrate-inline-summaries.js';
import { migrateItemSlots } from './store/migrate-item-slots.js';
import { summaryPartsRepository } from './store/summary-parts-repository.js';
import { DEFAULT_RAW_EVENT_RETENTION_MS, rawEventsRepository } from './store/raw-events-repository.js';
import { outboxRepository } from './store/outbox-repository.js';
import { plansRepository } from './store/plans-repository.js';
import { createTenantWriteLock } from './store/tenant-write-lock.js';
import { tierCatalogueRepository } from './store/tier-catalogue-repository.js';

export interface AdoptionDeps {
  /** `events` is needed by startConsumer only; the job schedules fall back to the defaults. */
  readonly config: Pick<AdoptionConfig, 'events'> &
    Partial<Pick<AdoptionConfig, 'driftWatch' | 'outbox' | 'housekeeping' | 'domain'>>;
  readonly db: Db;
  readonly verifier: TokenVerifier;
  /** The logout revocation list: every user token is checked against it (fails closed). */
  readonly revocations: SessionRevocations;
  /** This service's mTLS identity: callers are checked against RPC_ALLOWLIST. */
  readonly tls: ServiceTls;
  /**
   * Publishes an event on the bus (adoption emits milestone.completed); rejects when the stream
   * did not confirm it, and the outbox relay tries again.
   */
  readonly publish: (event: ProductEvent) => Promise<unknown>;
  /**
   * Publishes an outbound event on the domain stream with its id as the message id (rung, band,
   * risk-signal moves, audit entries); rejects when the stream did not confirm it, and the
   * outbox relay tries again.
   */
  readonly publishDomain: PublishDomainEvent;
  readonly logger: Logger;
  /** The clock of every recompute, the consumer and the drift watch (tests move it). */
  readonly now?: () => Date;
  readonly newId?: () => string;
  /**
   * How long a cached projection (or plan chain) is served when no notice says it changed
   * (NOTICED_READ_MODEL_TTL_MS: what a lost notice costs at most);
   */
  readonly readModelTtlMs?: number;
  /** The same while the other replicas' notices are heard (HEARD_READ_MODEL_TTL_MS). */
  readonly readModelHeardTtlMs?: number;
  /** Tenants whose projection the read model keeps (least recently used out first). */
  readonly readModelMaxTenants?: number;
}

export {
  DEAD_LETTER_STREAM,
  DEFAULT_ADOPTION_BATCH_SIZE,
  DEFAULT_ADOPTION_FLUSH_WINDOW_MS,
} from './events/product-consumer.js';
export type { AdoptionConsumer, ConsumerOptions } from './events/product-consumer.js';

export interface AdoptionApp {
  readonly grpc: GrpcServer;
  /** Creates the indexes the store relies on (idempotent). */
  prepare(): Promise<void>;
  /** Ensures the event stream and starts the durable milestone detector on `nc`. */
  startConsumer(nc: NatsConnection, options?: ConsumerOptions): Promise<AdoptionConsumer>;
  /** Starts the scheduled drift watch (see docs/adoption-model.md, "Drift watch job"). */
  startDriftWatch(): DriftWatchJob;
  /** Runs one drift-watch pass now. */
  runDriftWatch(): Promise<DriftPassReport>;
  /** Starts the scheduled outbox relay (see docs/adoption-model.md, "The outbox of milestone.completed"). */
  startOutboxRelay(): OutboxRelayJob;
  /** Runs one outbox relay pass now. */
  runOutboxRelay(): Promise<OutboxPassReport>;
  /** Starts the hourly housekeeping (raw-event retention, unnamed summary parts). */
  startHousekeeping(): HousekeepingJob;
  /** Runs one housekeeping pass now. */
  runHousekeeping(): Promise<HousekeepingReport>;
  /**
   * Publishes this replica's aggregate writes and listens for the others' on core NATS, so cached
   * reads never lag a write this replica was told about. Returns the stop function.
   */
  startReadModelNotices(nc: NatsConnection): () => void;
  /** The cached projection documents every read RPC serves (tests look at it). */
  readonly reads: VersionedCache<StoredProjection>;
}

/** Builds the adoption service without listening, consuming or scheduling. */
export function buildApp(deps: AdoptionDeps): AdoptionApp {
  const now = deps.now ?? (() => new Date());
  const drift = deps.config.driftWatch ?? {
    intervalMs: DEFAULT_DRIFT_INTERVAL_MS,
    rescanMs: DEFAULT_DRIFT_RESCAN_MS,
    leaseMs: DEFAULT_DRIFT_LEASE_MS,
  };
  const outboxConfig = deps.config.outbox ?? {
    intervalMs: DEFAULT_OUTBOX_INTERVAL_MS,
    graceMs: DEFAULT_OUTBOX_GRACE_MS,
  };
  // One lock per app, shared by gRPC, the consumer, the drift watch and the outbox relay (see
  // TenantWriteLock).
  const lock = createTenantWriteLock();
  const summaryParts = summaryPartsRepository(deps.db);
  // The consumer's memory of its own writes: a tenant's next group folds on it, unread.
  const lastWritten = lastWrittenAggregates();
  const stored = aggregatesRepository(deps.db, lock, summaryParts, lastWritten);
  const markers = itemMarkersRepository(deps.db);
  // The read model (docs/adoption-model.md, "Read models"): the projection documents the writes
  // store, one findOne by `_id` each. FerretDB serves such lookups several times slower than the
  // rate the reads must sustain over a thousand tenants, so one bounded cache of these small
  // documents stays in front of it: every write of this replica raises the tenant's floor and
  // tells the other replicas (notices). While the notices are heard, an entry lives
  // HEARD_READ_MODEL_TTL_MS (a notice lost on a live connection costs at most that), and every
  // gap in hearing them forgets all entries; before NATS, the short TTL bounds what another
  // replica's write costs. It holds projections only (bounded: 28 milestones, 10 cells, at most
  // 200 signals each).
  const reads = createVersionedCache<StoredProjection>({
    load: projectionReader(deps.db).read,
    versionOf: (read) => read.version,
    ttlMs: deps.readModelTtlMs ?? NOTICED_READ_MODEL_TTL_MS,
    heardTtlMs: deps.readModelHeardTtlMs ?? HEARD_READ_MODEL_TTL_MS,
    ...(deps.readModelMaxTenants === undefined ? {} : { maxEntries: deps.readModelMaxTenants }),
  });
  const aggregateChanges = createChangeChannel((tenantId, version) => {
    reads.changed(tenantId, version);
    lastWritten.changed(tenantId, version);
  });
  const changed = aggregateChanges.changed;
  const aggregates = notifyingAggregates(stored, changed);
  // Plan chains get the same read model, versioned by their length (a chain only grows).
  const storedPlans = plansRepository(deps.db);
  const planReads = createVersionedCache<readonly SuccessPlan[]>({
    load: (tenantId) => storedPlans.chain(tenantId),
    versionOf: (chain) => chain.length,
    ttlMs: deps.readModelTtlMs ?? NOTICED_READ_MODEL_TTL_MS,
    heardTtlMs: deps.readModelHeardTtlMs ?? HEARD_READ_MODEL_TTL_MS,
    ...(deps.readModelMaxTenants === undefined ? {} : { maxEntries: deps.readModelMaxTenants }),
  });
  const planChanges = createChangeChannel((tenantId, version) => planReads.changed(tenantId, version));
  const plans = notifyingPlans(storedPlans, planChanges.changed);
  const driftStore = notifyingDrift(driftRepository(deps.db, lock), changed);
  const outboxStore = outboxRepository(deps.db, lock);
  const rawEvents = rawEventsRepository(deps.db);
  const schedule = (tenantId: string, at: Date | null) => driftStore.schedule(tenantId, at);
  const watchLogger = deps.logger.child({ component: 'drift-watch' });
  // Each ladder move is logged exactly once (by the writer that stored it); the same write put
  // its risk_signal.* event in the outbox (the notifications service sends it on).
  const onTransitions = (tenantId: string, transitions: readonly SignalTransition[]) => {
    for (const t of transitions) watchLogger.info({ tenantId, ...t }, 'risk signal moved');
  };
  // The tier arrives by event (entitlements' tier.changed); upgrade offers are kept per tier.
  const tiers = tierCatalogueRepository(deps.db);
  const outbox = completionOutbox({
    publish: deps.publish,
    outbox: outboxStore,
    graceMs: outboxConfig.graceMs,
  });
  // Rung, band, risk-signal and audit events: pushed into the changed document's outbox by the
  // write itself, published right after it, and by the relay when that publish did not happen.
  const events = eventOutbox({
    publishDomain: deps.publishDomain,
    outbox: outboxStore,
    graceMs: outboxConfig.graceMs,
    logger: deps.logger.child({ component: 'outbound-events' }),
  });
  const handlers = adoptionHandlers({
    aggregates,
    drift: driftStore,
    readProjection: (tenantId) => reads.view(tenantId),
    plans,
    readPlans: (tenantId) => planReads.view(tenantId),
    verifier: revocationCheckingVerifier(deps.verifier, deps.revocations),
    tiers,
    outbox,
    events,
    logger: deps.logger,
    now,
    newId: deps.newId ?? randomUUID,
    rescanMs: drift.rescanMs,
    schedule,
    onTransitions,
  });
  const grpc = createGrpcServer(
    [
      {
        name: 'tap.adoption.v1.AdoptionService',
        definition: contracts().adoption.AdoptionService.service,
        implementation: handlers,
      },
    ],
    { tls: deps.tls, allowlist: RPC_ALLOWLIST },
  );
  const watch = driftWatch({
    aggregates,
    drift: driftStore,
    now,
    rescanMs: drift.rescanMs,
    leaseMs: drift.leaseMs,
    onTransitions,
    tiers,
    events,
    intervalMs: drift.intervalMs,
    logger: watchLogger,
  });
  const housekeeper = housekeeping({
    rawEvents,
    orphanParts: orphanParts(deps.db, summaryParts),
    now,
    rawEventRetentionMs: DEFAULT_RAW_EVENT_RETENTION_MS,
    intervalMs: deps.config.housekeeping?.intervalMs ?? DEFAULT_HOUSEKEEPING_INTERVAL_MS,
    logger: deps.logger.child({ component: 'housekeeping' }),
  });
  const relay = outboxRelay({
    outbox: outboxStore,
    publish: deps.publish,
    publishDomain: deps.publishDomain,
    now,
    graceMs: outboxConfig.graceMs,
    intervalMs: outboxConfig.intervalMs,
    logger: deps.logger.child({ component: 'outbox-relay' }),
  });
  const logger = deps.logger.child({ component: 'milestone-detector' });
  return {
    grpc,
    async prepare() {
      await ensureAdoptionIndexes(deps.db, DEFAULT_RAW_EVENT_RETENTION_MS);
      const migration = await migrateFactArrays(deps.db, now());
      if (migration.migrated + migration.skipped > 0) {
        deps.logger.info({ ...migration }, 'aggregates migrated from fact arrays to summaries');
      }
      const layered = await migrateInlineSummaries(deps.db, summaryParts, now());
      if (layered.migrated + layered.skipped > 0) {
        deps.logger.info({ ...layered }, 'aggregate summaries moved to summary parts');
      }
      const itemized = await migrateItemSlots(deps.db, markers, (tenantId) => stored.load(tenantId), now());
      if (itemized.migrated + itemized.skipped > 0) {
        deps.logger.info({ ...itemized }, 'distinct items moved from summaries to item markers');
      }
      const unprojected = await scheduleUnprojected(deps.db, now());
      if (unprojected > 0)
        deps.logger.info({ unprojected }, 'aggregates without a projection due for the drift watch');
    },
    startConsumer: (nc, options) =>
      startProductConsumer(
        nc,
        {
          events: deps.config.events,
          ...(deps.config.domain ? { domain: deps.config.domain } : {}),
          logger,
          ingest: {
            aggregates: { load: aggregates.loadForFacts, applyFacts: aggregates.applyFacts },
            markers,
            rawEvents,
            completions: detectedCompletionOutbox(outbox, logger),
            events,
            tiers,
            now,
            rescanMs: drift.rescanMs,
            schedule,
            onTransitions,
          },
        },
        options,
      ),
    startDriftWatch: watch.start,
    runDriftWatch: watch.run,
    startOutboxRelay: relay.start,
    runOutboxRelay: relay.run,
    startHousekeeping: housekeeper.start,
    runHousekeeping: housekeeper.run,
    startReadModelNotices(nc) {
      const prefix = deps.config.events.subjectPrefix;
      const stops = [
        aggregateChanges.start(nc, readModelNoticeSubject(prefix, 'adoption'), (listening) =>
          reads.setListening(listening),
        ),
        planChanges.start(nc, readModelNoticeSubject(prefix, 'adoption-plans'), (listening) =>
          planReads.setListening(listening),
        ),
      ];
      return () => stops.forEach((stop) => stop());
    },
    reads,
  };
}
