import { loadConfigOrExit } from '@tap/config';
import { createRedisLease, DEFAULT_LEASE_TTL_MS } from '@tap/events';
import { runConsumingService } from '@tap/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist. The rest of the start-up is @tap/runtime's.
const config = loadConfigOrExit('entitlements', () => loadConfig(process.env));

await runConsumingService({
  name: 'entitlements',
  config,
  build: ({ db, verifier, revocations, tls, logger, redis }) => {
    const app = buildApp({ config, db, verifier, revocations, tls, logger });
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
      // Cached reads drop what another replica's write made older (docs/entitlements-model.md).
      startReadModelNotices: (nc) => app.startReadModelNotices(nc),
      async startConsumer(nc) {
        const consumer = await app.startConsumer(nc, { lease });
        return {
          stats: () => {
            const stats = consumer.stats();
            return { ...stats, failed: stats.retried };
          },
          stop: () => consumer.stop(),
        };
      },
    };
  },
  background: (app) => [
    { name: 'cleanup', start: () => app.startCleanup() },
    { name: 'api-request-days', start: () => app.startApiRequestDays() },
  ],
});
