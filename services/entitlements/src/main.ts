import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { loadConfigOrExit } from '@tap/config';
import type { DomainEvent } from '@tap/contracts';
import { DependencyUnavailableError } from '@tap/errors';
import {
  createDomainEventPublisher,
  currentConnectionPublisher,
  createRedisLease,
  DEFAULT_LEASE_TTL_MS,
  ensureEventStream,
} from '@tap/events';
import { runConsumingService, watchedBatchConsumer } from '@tap/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist. The rest of the start-up is @tap/runtime's.
const config = loadConfigOrExit('entitlements', () => loadConfig(process.env));

await runConsumingService({
  name: 'entitlements',
  config,
  build: ({ db, nats, verifier, revocations, tls, logger, redis }) => {
    // Tier changes go out as tier.changed (docs/entitlements-model.md, "Tier changes on the bus").
    const publish = currentConnectionPublisher({
      connection: () => nats.current(),
      subjectPrefix: config.events.subjectPrefix,
    });
    // tier.changed and usage thresholds for the outbound service (the domain stream, created
    // here if the outbound service has not yet: idempotent, once per connection).
    const ensured = new WeakMap<object, Promise<unknown>>();
    const publishDomain = async (event: DomainEvent) => {
      const nc = nats.current();
      if (!nc) throw new DependencyUnavailableError('nats is not connected yet');
      let ensure = ensured.get(nc);
      if (!ensure) {
        ensure = jetstreamManager(nc).then((jsm) =>
          ensureEventStream(jsm, {
            streamName: config.domain.streamName,
            subjectPrefix: config.domain.subjectPrefix,
            duplicateWindowMs: config.events.duplicateWindowMs,
          }),
        );
        ensure.catch(() => ensured.delete(nc));
        ensured.set(nc, ensure);
      }
      await ensure;
      return createDomainEventPublisher(jetstream(nc), {
        subjectPrefix: config.domain.subjectPrefix,
      }).publish(event);
    };
    const app = buildApp({ config, db, verifier, revocations, tls, logger, publish, publishDomain });
    // One replica counts at a time (docs/entitlements-model.md): the holder of this lease.
    const lease = createRedisLease({
      redis,
      key: `lease:entitlements:${config.events.consumerName}`,
      ttlMs: DEFAULT_LEASE_TTL_MS,
    });
    return {
      grpc: app.grpc,
      prepare: () => app.prepare(),
      startCleanup: () => app.startCleanup(),
      // The gateway's API request counts, copied into the usage history (same Redis).
      startApiRequestDays: () => app.startApiRequestDays(redis),
      startTierAnnouncements: () => app.startTierAnnouncements(),
      startDomainAnnouncements: () => app.startDomainAnnouncements(),
      // Cached reads drop what another replica's write made older (docs/entitlements-model.md).
      startReadModelNotices: (nc) => app.startReadModelNotices(nc),
      startConsumer: async (nc) => watchedBatchConsumer(await app.startConsumer(nc, { lease })),
    };
  },
  background: (app) => [
    { name: 'cleanup', start: () => app.startCleanup() },
    { name: 'api-request-days', start: () => app.startApiRequestDays() },
    { name: 'tier announcements', start: () => app.startTierAnnouncements() },
    { name: 'domain announcements', start: () => app.startDomainAnnouncements() },
  ],
});
