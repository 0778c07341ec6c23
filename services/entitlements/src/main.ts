import { loadConfigOrExit } from '@tap/config';
import { runConsumingService } from '@tap/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist. The rest of the start-up is @tap/runtime's.
const config = loadConfigOrExit('entitlements', () => loadConfig(process.env));

await runConsumingService({
  name: 'entitlements',
  config,
  build: ({ db, verifier, revocations, tls, logger }) =>
    buildApp({ config, db, verifier, revocations, tls, logger }),
  background: (app) => [{ name: 'cleanup', start: () => app.startCleanup() }],
});
