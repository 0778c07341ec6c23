import { loadConfigOrExit } from '@tap/config';
import { createMongoDependency, Readiness, runGrpcService } from '@tap/runtime';
import { createLogger, startTelemetry } from '@tap/telemetry';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist.
const config = loadConfigOrExit('identity', () => loadConfig(process.env));
const telemetry = startTelemetry({ serviceName: 'identity', otlpTracesUrl: config.otlpTracesUrl });
const logger = createLogger({ service: 'identity', level: config.logLevel as 'info' });
const readiness = new Readiness();

const mongo = createMongoDependency({ url: config.mongo.url, database: config.mongo.database, appName: 'identity', readiness, logger });
const app = buildApp({ config, db: mongo.db, logger });

await runGrpcService({
  name: 'identity',
  host: config.host,
  grpcPort: config.grpcPort,
  httpPort: config.httpPort,
  logger,
  readiness,
  grpc: app.grpc,
  prepare: async () => {
    await mongo.connected();
    await app.prepare();
  },
  shutdownSteps: [
    { name: 'mongo', run: () => mongo.close() },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
