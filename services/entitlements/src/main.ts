import { loadConfigOrExit } from '@tap/config';
import { createMongoDependency, Readiness, runGrpcService } from '@tap/runtime';
import { identityJwksFetcher } from '@tap/service-auth';
import { createLogger, startTelemetry } from '@tap/telemetry';
import { createTokenVerifier } from '@tap/tokens';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfigOrExit('entitlements', () => loadConfig(process.env));
const telemetry = startTelemetry({ serviceName: 'entitlements', otlpTracesUrl: config.otlpTracesUrl });
const logger = createLogger({ service: 'entitlements', level: config.logLevel as 'info' });
const readiness = new Readiness();

const mongo = createMongoDependency({ url: config.mongo.url, database: config.mongo.database, appName: 'entitlements', readiness, logger });
const jwks = identityJwksFetcher(config.identityAddress);
const verifier = createTokenVerifier({ ...config.tokens, fetchJwks: jwks.fetch });
const app = buildApp({ config, db: mongo.db, verifier, logger });

await runGrpcService({
  name: 'entitlements',
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
    { name: 'identity client', run: async () => jwks.close() },
    { name: 'mongo', run: () => mongo.close() },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
