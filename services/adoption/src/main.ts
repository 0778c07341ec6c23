import { jetstream } from '@nats-io/jetstream';
import { loadConfigOrExit } from '@tap/config';
import { DependencyUnavailableError } from '@tap/errors';
import {
  createDomainEventPublisher,
  currentConnectionPublisher,
  createRedisLease,
  DEFAULT_LEASE_TTL_MS,
} from '@tap/events';
import { runConsumingService, watchedBatchConsumer } from '@tap/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { OutboundEvent } from './domain/index.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist. The rest of the start-up is @tap/runtime's.
const config = loadConfigOrExit('adoption', () => loadConfig(process.env));

await runConsumingService({
  name: 'adoption',
  config,
  build: ({ db, nats, verifier, revocations, tls, logger, redis }) => {
    const publish = currentConnectionPublisher({
      connection: () => nats.current(),
      subjectPrefix: config.events.subjectPrefix,
    });
    const publishDomain = async (event: OutboundEvent) => {
      const nc = nats.current();
      if (!nc) throw new DependencyUnavailableError('nats is not connected yet');
      return createDomainEventPublisher(jetstream(nc), {
        subjectPrefix: config.domain.subjectPrefix,
      }).publish(event);
    };
    const app = buildApp({ config, db, verifier, revocations, tls, publish, publishDomain, logger });
    // One active owner across replicas: two pulling one durable could reorder a tenant's events.
    const lease = createRedisLease({
      redis,
      key: `lease:adoption:${config.events.consumerName}`,
      ttlMs: DEFAULT_LEASE_TTL_MS,
    });
    return {
      grpc: app.grpc,
      prepare: () => app.prepare(),
      startDriftWatch: () => app.startDriftWatch(),
      startOutboxRelay: () => app.startOutboxRelay(),
      startHousekeeping: () => app.startHousekeeping(),
      // Cached reads drop what another replica's write made older (docs/adoption-model.md).
      startReadModelNotices: (nc) => app.startReadModelNotices(nc),
      startConsumer: async (nc) => watchedBatchConsumer(await app.startConsumer(nc, { lease })),
    };
  },
  // A pass in flight finishes its tenant writes (and the relay its publish) before NATS and Mongo close.
  background: (app) => [
    { name: 'drift watch', start: () => app.startDriftWatch() },
    { name: 'outbox relay', start: () => app.startOutboxRelay() },
    { name: 'housekeeping', start: () => app.startHousekeeping() },
  ],
});
