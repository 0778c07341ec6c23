import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { DomainEvent } from '@tap/contracts';
import { ensureEventStream } from '@tap/events';
import { createGrpcServer, type GrpcServer, type ServiceTls, currentRequestId } from '@tap/grpc-kit';
import { createKeyedLock, startPeriodicJob, type PeriodicJob } from '@tap/runtime';
import { revocationCheckingVerifier, RPC_ALLOWLIST, type SessionRevocations } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import type { ConsumerCounts, Logger } from '@tap/telemetry';
import type { Db } from 'mongodb';
import type { NotificationsConfig } from './config.js';
import { createSecretBox } from './crypto/secret-box.js';
import { notificationErrors } from './domain/index.js';
import { generateWebhookSecret, signWithSecret } from './crypto/webhook-signer.js';
import { startOutboundConsumers } from './events/outbound-consumers.js';
import { startDeliveryWorker, type DeliveryWorker } from './jobs/delivery-worker.js';
import { resolveTarget } from './net/address-guard.js';
import { httpWebhookSender } from './net/http-sender.js';
import { contracts } from '@tap/contracts';
import { notificationsHandlers } from './grpc/notifications-handlers.js';
import { auditChange, type Actor } from './operations/audit-change.js';
import { createEndpoint, type CreateEndpointInput } from './operations/create-endpoint.js';
import { deleteEndpoint } from './operations/delete-endpoint.js';
import { listAttempts, listDeliveries } from './operations/list-deliveries.js';
import { updateEndpoint } from './operations/update-endpoint.js';
import { deliverOne } from './operations/deliver-one.js';
import { ingestDomainEvent, type IngestReport } from './operations/ingest-domain-event.js';
import { listEventsFeed, type FeedPage } from './operations/list-events-feed.js';
import type {
  AttemptsRepository,
  DeliveriesRepository,
  Delivery,
  DeliveryAttempt,
  EndpointsRepository,
  SecretKeeper,
  WebhookEndpoint,
  WebhookSender,
} from './operations/ports.js';
import { pruneFeed } from './operations/prune-feed.js';
import {
  exportAuditCsv,
  listAuditEntries,
  pruneAudit,
  type AuditPage,
  type AuditQuery,
} from './operations/list-audit-entries.js';
import { recordAuditEntry } from './operations/record-audit-entry.js';
import { auditRepository } from './store/audit-repository.js';
import { replayDelivery } from './operations/replay-delivery.js';
import { rotateEndpointSecret } from './operations/rotate-endpoint-secret.js';
import { sendTestEvent } from './operations/send-test-event.js';
import { attemptsRepository } from './store/attempts-repository.js';
import { deliveriesRepository } from './store/deliveries-repository.js';
import { endpointsRepository } from './store/endpoints-repository.js';
import { feedRepository } from './store/feed-repository.js';
import { ensureIndexes } from './store/indexes.js';
import { smtpMailer } from '@tap/mail';
import { notifyOwners, type NotifyOwnersReport } from './operations/notify-owners.js';
import { DEFAULT_DELIVERY_LOG_RETENTION_MS, pruneDeliveryLog } from './operations/prune-delivery-log.js';
import { trackMembers } from './operations/track-members.js';
import { membersRepository } from './store/members-repository.js';
import { ownerNoticesRepository } from './store/owner-notices-repository.js';

/** How often pending owner notices are mailed (one is also tried at once when written). */
export const OWNER_NOTICE_INTERVAL_MS = 10_000;

export interface NotificationsDeps {
  /**
   * The service's settings. Absent deliveryLogRetentionMs: DEFAULT_DELIVERY_LOG_RETENTION_MS
   * (30 days); absent mail: the notices to OWNERs wait unsent.
   */
  readonly config: Pick<
    NotificationsConfig,
    'events' | 'domain' | 'webhooks' | 'feedRetentionMs' | 'auditRetentionMs' | 'cleanupIntervalMs'
  > &
    Partial<Pick<NotificationsConfig, 'deliveryLogRetentionMs' | 'mail'>>;
  readonly db: Db;
  /** identity's key set: every call's token is verified again here (zero trust). */
  readonly verifier: TokenVerifier;
  /** The logout revocation list: every user token is checked against it (fails closed). */
  readonly revocations: SessionRevocations;
  readonly tls: ServiceTls;
  readonly logger: Logger;
  readonly now?: () => Date;
  /** The HTTP sender by default; nothing else is swapped in (tests use a real receiver). */
  readonly sender?: WebhookSender;
}

export interface NotificationsApp {
  readonly grpc: GrpcServer;
  prepare(): Promise<void>;
  startConsumer(nc: NatsConnection): Promise<{ stop(): Promise<void>; stats(): ConsumerCounts }>;
  startDeliveries(): DeliveryWorker;
  startCleanup(): PeriodicJob;
  /** Mails pending owner notices every OWNER_NOTICE_INTERVAL_MS (nothing without SMTP). */
  startOwnerNotices(): PeriodicJob | undefined;
  /** The use cases, for the gRPC handlers to come and for tests. */
  readonly ops: {
    /** The change is written to the audit log when an actor is given (every RPC gives one). */
    createEndpoint(
      input: CreateEndpointInput,
      actor?: Actor,
    ): Promise<{ endpoint: WebhookEndpoint; secret: string }>;
    listEndpoints(tenantId: string): Promise<WebhookEndpoint[]>;
    updateEndpoint(
      tenantId: string,
      endpointId: string,
      change: { types?: readonly string[]; enabled?: boolean },
      actor?: Actor,
    ): Promise<WebhookEndpoint>;
    deleteEndpoint(tenantId: string, endpointId: string, actor?: Actor): Promise<void>;
    rotateSecret(
      tenantId: string,
      endpointId: string,
      actor?: Actor,
    ): Promise<{ secret: string; previousExpiresAt: Date }>;
    listDeliveries(tenantId: string, endpointId: string, limit: number): Promise<Delivery[]>;
    listAttempts(tenantId: string, deliveryId: string): Promise<DeliveryAttempt[]>;
    ingest(event: DomainEvent): Promise<IngestReport>;
    feed(input: {
      tenantId: string;
      after?: string;
      types?: readonly string[];
      limit?: number;
    }): Promise<FeedPage>;
    replay(tenantId: string, deliveryId: string): Promise<void>;
    getEndpoint(tenantId: string, endpointId: string): Promise<WebhookEndpoint>;
    sendTest(tenantId: string, endpointId: string): Promise<Delivery>;
    /** Audit entries to the log, every other outbound event to the feed and the webhooks. */
    apply(event: DomainEvent): Promise<unknown>;
    audit(query: AuditQuery): Promise<AuditPage>;
    auditCsv(query: Omit<AuditQuery, 'cursor' | 'limit'>): Promise<string>;
    cleanup(): Promise<{
      feed: number;
      audit: number;
      deliveries: number;
      attempts: number;
      notices: number;
    }>;
    /** One pass over the pending owner notices (mailed when SMTP is configured). */
    notifyOwners(): Promise<NotifyOwnersReport>;
  };
  readonly stores: {
    readonly endpoints: EndpointsRepository;
    readonly deliveries: DeliveriesRepository;
    readonly attempts: AttemptsRepository;
  };
}

/** Builds the notifications service without listening, consuming or scheduling. */
/** The gateway's request id of the call being served, for the audit entry it leads to. */
function requestFacts(): { requestId?: string } {
  const requestId = currentRequestId();
  return requestId === undefined ? {} : { requestId };
}

export function buildApp(deps: NotificationsDeps): NotificationsApp {
  const now = deps.now ?? (() => new Date());
  const { webhooks } = deps.config;
  const box = createSecretBox(webhooks.secretEncryptionKey);
  const secrets: SecretKeeper = {
    generate: generateWebhookSecret,
    seal: (s) => box.seal(s),
    open: (s) => box.open(s),
    sign: signWithSecret,
  };
  const stores = {
    endpoints: endpointsRepository(deps.db),
    deliveries: deliveriesRepository(deps.db),
    attempts: attemptsRepository(deps.db),
  };
  const feed = feedRepository(deps.db);
  const members = membersRepository(deps.db);
  const notices = ownerNoticesRepository(deps.db);
  const mailer = deps.config.mail ? smtpMailer(deps.config.mail) : undefined;
  const noticeLogger = deps.logger.child({ component: 'owner-notices' });
  // One pass at a time in this process: two at once would both mail a notice before either
  // marked it sent. (Replicas may still both mail one: at least once, like the webhooks.)
  const noticePasses = createKeyedLock({ maxWaitMs: 60_000 });
  const mailOwners = (): Promise<NotifyOwnersReport> =>
    mailer
      ? noticePasses.run('owner-notices', () =>
          notifyOwners({ notices, members, mailer, now, logger: noticeLogger }),
        )
      : Promise.resolve({ pending: 0, sent: 0, unaddressed: 0, failed: 0 });
  const audit = auditRepository(deps.db);
  const sender =
    deps.sender ??
    httpWebhookSender({ timeoutMs: webhooks.timeoutMs, devAllowedHosts: webhooks.devAllowedHosts });
  const logger = deps.logger.child({ component: 'webhooks' });
  const audited = (tenantId: string, actor: Actor, action: string, endpointId: string) =>
    auditChange({ audit, now, newId: randomUUID }, tenantId, actor, action, endpointId, requestFacts());
  const ops: NotificationsApp['ops'] = {
    createEndpoint: async (input, actor) => {
      const created = await createEndpoint(
        {
          endpoints: stores.endpoints,
          secrets,
          devAllowedHosts: webhooks.devAllowedHosts,
          checkHost: async (host) => {
            const target = await resolveTarget(host, webhooks.devAllowedHosts);
            return target.ok ? 'OK' : target.reason;
          },
          now,
          newId: randomUUID,
        },
        input,
      );
      if (actor) await audited(input.tenantId, actor, 'webhook_endpoint.created', created.endpoint.id);
      return created;
    },
    listEndpoints: (tenantId) => stores.endpoints.list(tenantId),
    getEndpoint: async (tenantId, endpointId) => {
      const endpoint = await stores.endpoints.find(tenantId, endpointId);
      if (!endpoint) throw notificationErrors.create('ENDPOINT_NOT_FOUND');
      return endpoint;
    },
    sendTest: (tenantId, endpointId) =>
      sendTestEvent({ ...stores, now, newId: randomUUID }, tenantId, endpointId),
    updateEndpoint: async (tenantId, endpointId, change, actor) => {
      const updated = await updateEndpoint(
        { endpoints: stores.endpoints, now },
        tenantId,
        endpointId,
        change,
      );
      if (actor) await audited(tenantId, actor, 'webhook_endpoint.updated', endpointId);
      return updated;
    },
    deleteEndpoint: async (tenantId, endpointId, actor) => {
      await deleteEndpoint({ endpoints: stores.endpoints }, tenantId, endpointId);
      if (actor) await audited(tenantId, actor, 'webhook_endpoint.deleted', endpointId);
    },
    rotateSecret: async (tenantId, endpointId, actor) => {
      const rotated = await rotateEndpointSecret(
        { endpoints: stores.endpoints, secrets, overlapMs: webhooks.rotationOverlapMs, now },
        tenantId,
        endpointId,
      );
      if (actor) await audited(tenantId, actor, 'webhook_endpoint.secret_rotated', endpointId);
      return rotated;
    },
    listDeliveries: (tenantId, endpointId, limit) => listDeliveries(stores, tenantId, endpointId, limit),
    listAttempts: (tenantId, deliveryId) => listAttempts(stores, tenantId, deliveryId),
    ingest: (event) => ingestDomainEvent({ feed, ...stores, now, newId: randomUUID }, event),
    feed: (input) => listEventsFeed({ feed }, input),
    replay: (tenantId, deliveryId) =>
      replayDelivery({ deliveries: stores.deliveries, now }, tenantId, deliveryId),
    apply: async (event) => {
      if (event.type === 'audit.entry_recorded') return recordAuditEntry({ audit }, event);
      // The owners' addresses, before the event is fed and delivered like any other.
      if (event.type.startsWith('member.')) await trackMembers({ members }, event);
      return ops.ingest(event);
    },
    audit: (query) => listAuditEntries({ audit, now }, query),
    auditCsv: (query) => exportAuditCsv({ audit, now }, query),
    cleanup: async () => ({
      feed: await pruneFeed({ feed, now }, deps.config.feedRetentionMs),
      audit: await pruneAudit({ audit, now }, deps.config.auditRetentionMs),
      ...(await pruneDeliveryLog(
        { ...stores, notices, now },
        deps.config.deliveryLogRetentionMs ?? DEFAULT_DELIVERY_LOG_RETENTION_MS,
      )),
    }),
    notifyOwners: mailOwners,
  };
  const grpc = createGrpcServer(
    [
      {
        name: 'tap.notifications.v1.NotificationsService',
        definition: contracts().notifications.NotificationsService.service,
        implementation: notificationsHandlers({
          ops,
          verifier: revocationCheckingVerifier(deps.verifier, deps.revocations),
          logger: deps.logger,
        }),
      },
    ],
    { tls: deps.tls, allowlist: RPC_ALLOWLIST },
  );

  return {
    grpc,
    prepare: () => ensureIndexes(deps.db),
    async startConsumer(nc) {
      const jsm = await jetstreamManager(nc);
      const { events, domain } = deps.config;
      const duplicateWindowMs = events.duplicateWindowMs;
      await ensureEventStream(jsm, {
        streamName: events.streamName,
        subjectPrefix: events.subjectPrefix,
        duplicateWindowMs,
      });
      await ensureEventStream(jsm, {
        streamName: domain.streamName,
        subjectPrefix: domain.subjectPrefix,
        duplicateWindowMs,
      });
      return startOutboundConsumers(nc, jetstream(nc), jsm, {
        product: { streamName: events.streamName, subjectPrefix: events.subjectPrefix },
        domain,
        consumerName: events.consumerName,
        apply: (event) => ops.apply(event),
        logger: deps.logger.child({ component: 'outbound-consumer' }),
      });
    },
    startDeliveries: () =>
      startDeliveryWorker({
        claim: (max, inFlight) =>
          stores.deliveries.claimDue(
            now(),
            webhooks.claimLeaseMs,
            max,
            inFlight,
            webhooks.maxInFlightPerEndpoint,
          ),
        deliver: (delivery) =>
          deliverOne(
            {
              ...stores,
              secrets,
              sender,
              retryScheduleMs: webhooks.retryScheduleMs,
              disableAfterFailingMs: webhooks.disableAfterFailingMs,
              // The audit entry, and a notice to the OWNERs written before it is mailed (a mail
              // server that is down delays it; the notice job sends it later).
              endpointDisabled: async (endpointId, tenantId) => {
                logger.warn({ endpointId, tenantId }, 'webhook endpoint disabled after failing');
                await audited(tenantId, { type: 'system' }, 'webhook_endpoint.disabled', endpointId);
                const endpoint = await stores.endpoints.find(tenantId, endpointId);
                const at = now();
                await notices.add({
                  id: `endpoint_disabled:${endpointId}:${at.toISOString()}`,
                  tenantId,
                  kind: 'endpoint_disabled',
                  endpointId,
                  url: endpoint?.url ?? '',
                  createdAt: at,
                });
                mailOwners().catch((error: unknown) =>
                  noticeLogger.warn({ err: error }, 'owner notices left for the next pass'),
                );
              },
              now,
            },
            delivery,
          ),
        maxInFlight: webhooks.maxInFlight,
        perEndpoint: webhooks.maxInFlightPerEndpoint,
        pollIntervalMs: webhooks.pollIntervalMs,
        logger,
      }),
    startCleanup: () =>
      startPeriodicJob({
        name: 'notifications-cleanup',
        intervalMs: deps.config.cleanupIntervalMs,
        run: () => ops.cleanup(),
        logger,
        describe: (removed) => (Object.values(removed).some((n) => n > 0) ? { ...removed } : undefined),
      }),
    startOwnerNotices: () =>
      mailer
        ? startPeriodicJob({
            name: 'owner-notices',
            intervalMs: OWNER_NOTICE_INTERVAL_MS,
            run: mailOwners,
            logger: noticeLogger,
            describe: (report) => (report.pending > 0 ? { ...report } : undefined),
          })
        : undefined,
    ops,
    stores,
  };
}
