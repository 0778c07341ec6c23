import { loadConfigOrExit } from '@tap/config';
import { runConsumingService } from '@tap/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist. The rest of the start-up is @tap/runtime's.
const config = loadConfigOrExit('notifications', () => loadConfig(process.env));

await runConsumingService({
  name: 'notifications',
  config,
  build: ({ db, tls, logger, verifier, revocations }) =>
    buildApp({ config, db, tls, logger, verifier, revocations }),
  background: (app) => [
    { name: 'deliveries', start: () => app.startDeliveries() },
    { name: 'cleanup', start: () => app.startCleanup() },
    // Without SMTP_URL nothing is mailed (the notices wait; the audit entry says what happened).
    { name: 'owner-notices', start: () => app.startOwnerNotices() ?? { stop: async () => undefined } },
  ],
});
