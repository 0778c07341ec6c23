import type { NatsConnection } from '@nats-io/nats-core';
import { contracts, type ProductEvent } from '@tap/contracts';
import { createChangeChannel, eventErrors, type BatchConsumer } from '@tap/events';
import { createGrpcServer, type GrpcServer, type ServiceTls } from '@tap/grpc-kit';
import type { Logger } from '@tap/telemetry';
import { revocationCheckingVerifier, RPC_ALLOWLIST, type SessionRevocations } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import type { Db } from 'mongodb';
import {
  DEFAULT_APPLIED_EVENT_RETENTION_MS,
  DEFAULT_CLEANUP_INTERVAL_MS,
  type EntitlementsConfig,
  type EventsConfig,
} from './config.js';
import { startUsageConsumer, type UsageConsumerOptions } from './events/start-usage-consumer.js';
import { usageBatchHandler } from './events/usage-batch-handler.js';
import { entitlementsHandlers } from './grpc/entitlements-handlers.js';
import { noticeSubject } from './events/read-model-notices.js';
import { createReadModelCache } from './operations/read-model-cache.js';
import { notifyingUsage } from './store/notifying-usage.js';
import { startCleanupJob, type CleanupJob } from './jobs/cleanup-job.js';
import { runCleanupPass, type CleanupReport } from './operations/cleanup.js';
import { RECENT_EVENT_IDS_KEPT } from './operations/count-usage-batch.js';
import { countUsageEvents } from './operations/count-usage-events.js';
import type { UsageOperationsDeps } from './operations/deps.js';
import type { EntitlementsReadModel } from './operations/ports/read-model.js';
import type { UsageBatchDeps } from './operations/usage-batch-ports.js';
import { migrateUsageDocuments, type UsageMigrationReport } from './store/migrate-usage-documents.js';
import { usageBatchStore } from './store/usage-batch-store.js';
import type { RejectedEventsRepository } from './operations/ports/rejected-events-repository.js';
import { rejectedEventsRepository } from './store/rejected-events-repository.js';
import { createTenantWriteLock } from './store/tenant-write-lock.js';
import { tierAssignmentsRepository } from './store/tier-assignments-repository.js';
import { TIER_CATALOGUE_VERSION } from './domain/index.js';
import {
  announceTier,
  runAnnouncementPass,
  type AnnounceTierDeps,
  type AnnouncementPassReport,
} from './operations/announce-tiers.js';
import { announcingTiers } from './store/announcing-tiers.js';
import { tierAnnouncementsRepository } from './store/tier-announcements-repository.js';
import {
  DEFAULT_TIER_ANNOUNCEMENT_INTERVAL_MS,
  startTierAnnouncementJob,
  type TierAnnouncementJob,
} from './jobs/tier-announcement-job.js';
import { tracedProductsRepository } from './store/traced-products-repository.js';
import { usageRepository } from './store/usage-repository.js';
import { seatsRepository } from './store/seats-repository.js';
import { usageHistoryRepository } from './store/usage-history-repository.js';
import { pruneUsageHistory } from './operations/prune-usage-history.js';
import { copyApiRequestDays, type ApiRequestDaysReport } from './operations/copy-api-request-days.js';
import { apiRequestDaysSource, type HashScanner } from './store/api-request-days-source.js';
import { createKeyedLock, type PeriodicJob } from '@tap/runtime';
import type { DomainEvent } from '@tap/contracts';
import {
  announceDomainEvents,
  runDomainAnnouncementPass,
  type DomainAnnounceDeps,
  type DomainPassReport,
} from './operations/announce-domain-events.js';
import { domainAnnouncementsRepository } from './store/domain-announcements-repository.js';
import {
  DEFAULT_DOMAIN_ANNOUNCEMENT_INTERVAL_MS,
  startDomainAnnouncementJob,
} from './jobs/domain-announcement-job.js';
import { startApiRequestDaysJob } from './jobs/api-request-days-job.js';
import type { UsageHistoryRepository } from './operations/ports/usage-history-repository.js';

/** How often API request counts are copied into the history: how far today's stored point may lag. */
export const API_REQUEST_DAYS_INTERVAL_MS = 60_000;

export interface EntitlementsDeps {
  /** `events` is needed by startConsumer only; `cleanup` falls back to the defaults. */
  readonly config: Partial<Pick<EntitlementsConfig, 'events' | 'cleanup'>>;
  readonly db: Db;
  readonly verifier: TokenVerifier;
  /** The logout revocation list: every user token is checked against it (fails closed). */
  readonly revocations: SessionRevocations;
  /** This service's mTLS identity: callers are checked against RPC_ALLOWLIST. */
  readonly tls: ServiceTls;
  readonly logger: Logger;
  /**
   * Publishes on the bus (every tier change goes out as `tier.changed`, through an outbox:
   * docs/entitlements-model.md); rejects when the stream did not confirm it. Without it nothing
   * is announced (a service tested on its own).
   */
  readonly publish?: (event: ProductEvent) => Promise<unknown>;
  /**
   * Publishes on the domain stream (tier.changed, usage.threshold_reached / _cleared for the
   * outbound service: docs/entitlements-model.md, "Domain events"); rejects when the stream did
   * not confirm it. Without it nothing is announced there.
   */
  readonly publishDomain?: (event: DomainEvent) => Promise<unknown>;
  readonly now?: () => Date;
  /**
   * How long a tenant's cached view is served when no notice says it changed
   * (NOTICED_READ_MODEL_TTL_MS: what a lost notice costs at most; every write and tier change is
   * told to every replica, and callers keep a tier 1 s: the tier promise).
   */
  readonly readModelTtlMs?: number;
  /** The same while the other replicas' notices are heard (HEARD_READ_MODEL_TTL_MS of @tap/runtime). */
  readonly readModelHeardTtlMs?: number;
}

export interface EntitlementsApp {
  readonly grpc: GrpcServer;
  /** Indexes and the start-up migration of usage documents (before the consumer starts). */
  prepare(): Promise<void>;
  /** What the last prepare() migrated. */
  lastMigration(): UsageMigrationReport | undefined;
  /** Ensures the event stream and starts the batched usage-counter consumer on `nc`. */
  startConsumer(nc: NatsConnection, options?: UsageConsumerOptions): Promise<BatchConsumer>;
  /**
   * Publishes this replica's writes and listens for the others' on core NATS, so cached views
   * never lag a write this replica was told about. Returns the stop function.
   */
  startReadModelNotices(nc: NatsConnection): () => void;
  /** The cached read model (tests look at it). */
  readonly reads: EntitlementsReadModel;
  /** Starts the periodic clean-up (expired holds, finished reservations, old event ids and months). */
  startCleanup(): CleanupJob;
  /** Runs one clean-up pass now (history months older than the 13 kept included). */
  runCleanup(): Promise<CleanupReport & { readonly prunedHistoryMonths: number }>;
  /**
   * Starts copying the gateway's API request counts (Redis) into the usage history every
   * API_REQUEST_DAYS_INTERVAL_MS.
   */
  startApiRequestDays(redis: HashScanner): PeriodicJob;
  /** Copies them once now. */
  copyApiRequestDays(redis: HashScanner): Promise<ApiRequestDaysReport>;
  /** The usage history store (tests look at it). */
  readonly history: UsageHistoryRepository;
  /** Events and messages the counters refused, newest first (operators, tests). */
  readonly rejectedEvents: RejectedEventsRepository;
  /** Starts the `tier.changed` relay (tiers whose announcement is still to be published). */
  startTierAnnouncements(): TierAnnouncementJob;
  /** Runs one `tier.changed` relay pass now. */
  runTierAnnouncements(): Promise<AnnouncementPassReport>;
  /** Starts the domain-stream relay (tier.changed, usage thresholds) and its hourly sweep. */
  startDomainAnnouncements(): PeriodicJob;
  /** Runs one domain relay pass now (`sweep`: mark every tenant first). */
  runDomainAnnouncements(options?: { sweep?: boolean }): Promise<DomainPassReport>;
}

/** Builds the entitlements service without listening, consuming or scheduling. */
export function buildApp(deps: EntitlementsDeps): EntitlementsApp {
  const now = deps.now ?? (() => new Date());
  const cleanup = deps.config.cleanup ?? {
    intervalMs: DEFAULT_CLEANUP_INTERVAL_MS,
    appliedEventRetentionMs: DEFAULT_APPLIED_EVENT_RETENTION_MS,
  };
  // One lock per process, shared by gRPC, the consumer and the clean-up job (see TenantWriteLock).
  const ops: { -readonly [K in keyof UsageOperationsDeps]: UsageOperationsDeps[K] } = {
    usage: usageRepository(deps.db),
    traced: tracedProductsRepository(deps.db),
    tiers: tierAssignmentsRepository(deps.db),
    lock: createTenantWriteLock(),
    now,
  };
  const rejectedEvents = rejectedEventsRepository(deps.db);
  // The tier.changed outbox: a change marks the tenant before it is written and is published
  // right after; the relay publishes what a failure or a crash left marked.
  const announcements = tierAnnouncementsRepository(deps.db);
  const announceLogger = deps.logger.child({ component: 'tier-announcements' });
  const { publish } = deps;
  const announceDeps: AnnounceTierDeps = {
    tiers: ops.tiers,
    announcements,
    publish: async (event) => {
      if (!publish) throw new Error('this process publishes nothing');
      return publish(event).then(
        () => 'published' as const,
        (error: unknown) => {
          if (!eventErrors.is(error, 'EVENT_INVALID')) throw error;
          announceLogger.error(
            { err: error, tenantId: event.tenantId },
            'tier.changed refused by the contract',
          );
          return 'refused' as const;
        },
      );
    },
    now,
  };
  if (publish) {
    ops.tiers = announcingTiers(ops.tiers, announcements, async (tenantId) => {
      try {
        const mark = await announcements.find(tenantId);
        if (mark !== null) await announceTier(announceDeps, mark);
      } catch (error) {
        announceLogger.warn({ err: error, tenantId }, 'tier.changed left for the relay');
      }
    });
  }
  const runTierAnnouncements = () =>
    publish
      ? runAnnouncementPass(announceDeps, (tenantId, error) =>
          announceLogger.warn({ err: error, tenantId }, 'tier.changed still to be announced'),
        )
      : Promise.resolve({ pending: 0, published: 0, refused: 0, failed: 0 });
  const reads: EntitlementsReadModel = createReadModelCache({
    ...(deps.readModelTtlMs === undefined ? {} : { ttlMs: deps.readModelTtlMs }),
    ...(deps.readModelHeardTtlMs === undefined ? {} : { heardTtlMs: deps.readModelHeardTtlMs }),
    loadTier: (tenantId) => ops.tiers.findOrCreate(tenantId, now()),
    loadUsage: async (tenantId) => {
      const view = await ops.usage.read(tenantId);
      return { usage: view.doc, version: view.doc?.version ?? 0 };
    },
  });
  const changes = createChangeChannel((tenantId, version) => reads.changed(tenantId, version));
  // The domain events' outbox: every usage write and tier change marks the tenant and
  // announces at once, off the writer's path; the relay and its sweep do what that left.
  const domainAnnouncements = domainAnnouncementsRepository(deps.db);
  const history = usageHistoryRepository(deps.db);
  const domainLogger = deps.logger.child({ component: 'domain-announcements' });
  const { publishDomain } = deps;
  const domainDeps: DomainAnnounceDeps | undefined = publishDomain
    ? {
        tiers: ops.tiers,
        usage: ops.usage,
        announcements: domainAnnouncements,
        history,
        publish: publishDomain,
        isRefused: (error) => eventErrors.is(error, 'EVENT_INVALID'),
        locks: createKeyedLock(),
        now,
        logger: domainLogger,
      }
    : undefined;
  const announceMarked = (tenantId: string): void => {
    if (!domainDeps) return;
    domainAnnouncements
      .find(tenantId)
      .then(async (mark) => {
        if (mark) await announceDomainEvents(domainDeps, mark);
      })
      .catch((error: unknown) =>
        domainLogger.warn({ err: error, tenantId }, 'domain events left for the relay'),
      );
  };
  const touchDomain = (tenantId: string): void => {
    if (!domainDeps) return;
    domainAnnouncements.mark(tenantId, now()).then(
      () => announceMarked(tenantId),
      (error: unknown) => domainLogger.warn({ err: error, tenantId }, 'domain events left for the relay'),
    );
  };
  // A write whose domain events its caller waits for (the day's API count: a failed mark is
  // copied and marked again; a tier change): the mark is awaited, the announcement runs off its path.
  const markAndAnnounce = async (tenantId: string): Promise<void> => {
    if (!domainDeps) return;
    await domainAnnouncements.mark(tenantId, now());
    announceMarked(tenantId);
  };
  const changed = (tenantId: string, version?: number): void => {
    changes.changed(tenantId, version);
    touchDomain(tenantId);
  };
  const runDomainAnnouncements = async (options: { sweep?: boolean } = {}): Promise<DomainPassReport> => {
    if (!domainDeps) return { tenants: 0, events: 0, failed: 0 };
    if (options.sweep) await domainAnnouncements.markAll(now());
    return runDomainAnnouncementPass(domainDeps);
  };
  ops.usage = notifyingUsage(ops.usage, changed);
  const historyLogger = deps.logger.child({ component: 'usage-history' });
  const batchDeps: UsageBatchDeps = {
    store: usageBatchStore(deps.db),
    markers: ops.traced,
    lock: ops.lock,
    now,
    changed,
    // The counters are written by then: a lost point must not make the batch count again.
    history: {
      record: (tenantId, writes) =>
        history.record(tenantId, writes).catch((error: unknown) => {
          historyLogger.warn({ err: error, tenantId }, 'usage history point not written');
        }),
    },
  };
  let migration: UsageMigrationReport | undefined;
  const seats = seatsRepository(deps.db);
  const handlers = entitlementsHandlers({
    seats,
    ops,
    reads,
    history,
    // The mark is stored before SetTier answers (a caller that then looks for the tier's domain
    // events finds them on their way); a mark that cannot be stored is the hourly sweep's.
    tierChanged: async (tenantId) => {
      changes.changed(tenantId);
      await markAndAnnounce(tenantId).catch((error: unknown) =>
        domainLogger.warn({ err: error, tenantId }, 'domain events left for the sweep'),
      );
    },
    verifier: revocationCheckingVerifier(deps.verifier, deps.revocations),
    logger: deps.logger,
  });
  const grpc = createGrpcServer(
    [
      {
        name: 'tap.entitlements.v1.EntitlementsService',
        definition: contracts().entitlements.EntitlementsService.service,
        implementation: handlers,
      },
    ],
    { tls: deps.tls, allowlist: RPC_ALLOWLIST },
  );
  const cleanupLogger = deps.logger.child({ component: 'usage-cleanup' });
  const runCleanup = async () => {
    const report = await runCleanupPass(ops, {
      appliedEventRetentionMs: cleanup.appliedEventRetentionMs,
      onTenantError: (tenantId, error) =>
        cleanupLogger.warn({ err: error, tenantId }, 'tenant clean-up failed'),
    });
    return { ...report, prunedHistoryMonths: await pruneUsageHistory(history, now()) };
  };

  // Per process: a restart copies every tenant's count once again (the same values).
  const apiDaysWritten = new Map<string, number>();
  const copyDays = (redis: HashScanner) =>
    copyApiRequestDays(
      { source: apiRequestDaysSource(redis), history, now, todayMoved: markAndAnnounce },
      apiDaysWritten,
    );

  return {
    grpc,
    startApiRequestDays: (redis) =>
      startApiRequestDaysJob({
        intervalMs: API_REQUEST_DAYS_INTERVAL_MS,
        run: () => copyDays(redis),
        logger: historyLogger,
      }),
    copyApiRequestDays: copyDays,
    async prepare() {
      await seats.ensureIndexes();
      await domainAnnouncements.ensureIndexes();
      migration = await migrateUsageDocuments(deps.db, RECENT_EVENT_IDS_KEPT);
      // Every tenant's tier is announced once under each catalogue version (the first start
      // with announcements, a catalogue change); the relay publishes them.
      if (publish) {
        const marked = await announcements.markAllBelow(TIER_CATALOGUE_VERSION, now());
        if (marked > 0) announceLogger.info({ marked }, 'tiers marked for announcement');
      }
    },
    lastMigration: () => migration,
    async startConsumer(nc, options = {}) {
      const events: EventsConfig | undefined = deps.config.events;
      if (!events) throw new TypeError('config.events is required to start the usage consumer');
      const logger = deps.logger.child({ component: 'usage-counter' });
      let stopping = false;
      const handleBatch = usageBatchHandler({
        count: (tenantId, items) =>
          countUsageEvents(
            { batch: batchDeps, rejected: rejectedEvents, subjectPrefix: events.subjectPrefix },
            tenantId,
            items,
          ),
        stopping: () => stopping,
      });
      const consumer = await startUsageConsumer(nc, {
        events,
        handleBatch,
        rejected: rejectedEvents,
        logger,
        now,
        ...options,
      });
      return {
        durableName: consumer.durableName,
        owning: () => consumer.owning(),
        stats: () => consumer.stats(),
        // The batch in hand finishes the tenants it has begun and hands the rest back.
        stop: async () => {
          stopping = true;
          await consumer.stop();
        },
      };
    },
    startReadModelNotices: (nc) =>
      changes.start(nc, noticeSubject(deps.config.events?.subjectPrefix ?? 'events'), (listening) =>
        reads.setListening(listening),
      ),
    reads,
    startCleanup: () =>
      startCleanupJob({ intervalMs: cleanup.intervalMs, run: runCleanup, logger: cleanupLogger }),
    runCleanup,
    history,
    rejectedEvents,
    startTierAnnouncements: () =>
      startTierAnnouncementJob({
        intervalMs: DEFAULT_TIER_ANNOUNCEMENT_INTERVAL_MS,
        run: runTierAnnouncements,
        logger: announceLogger,
      }),
    runTierAnnouncements,
    startDomainAnnouncements: () =>
      startDomainAnnouncementJob({
        intervalMs: DEFAULT_DOMAIN_ANNOUNCEMENT_INTERVAL_MS,
        run: () => runDomainAnnouncements(),
        sweep: () => (domainDeps ? domainAnnouncements.markAll(now()) : Promise.resolve(0)),
        now,
        logger: domainLogger,
      }),
    runDomainAnnouncements,
  };
}
