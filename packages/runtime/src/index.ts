export { Readiness, publicReadiness } from './readiness.js';
export type { PublicReadiness, ReadinessCheck, ReadinessReport } from './readiness.js';
export { READINESS_LOG_INTERVAL_MS } from './readiness-log.js';
export type { ReadinessLogger } from './readiness-log.js';
export {
  installProcessPolicy,
  FATAL_EXIT_CODE,
  UNCAUGHT_EXCEPTION_MESSAGE,
  UNHANDLED_REJECTION_MESSAGE,
} from './process-policy.js';
export type { FatalLogger } from './process-policy.js';
export { startHealthServer } from './health-server.js';
export type { HealthServer, ExtraRoute } from './health-server.js';
export { retryWithBackoff } from './retry.js';
export type { BackoffOptions } from './retry.js';
export { installGracefulShutdown, DEFAULT_SHUTDOWN_TIMEOUT_MS } from './graceful-shutdown.js';
export type { GracefulShutdown, ShutdownStep, ShutdownLogger } from './graceful-shutdown.js';
export { createMongoDependency, MONGO_SERVER_SELECTION_TIMEOUT_MS } from './connect/mongo.js';
export type { MongoDependency } from './connect/mongo.js';
export { createNatsDependency } from './connect/nats.js';
export type { NatsDependency } from './connect/nats.js';
export { createRedisDependency, DEFAULT_REDIS_COMMAND_TIMEOUT_MS } from './connect/redis.js';
export type { DependencyLogger } from './connect/dependency-logger.js';
export { runGrpcService } from './run-grpc-service.js';
export type { ListeningServer, RunLogger } from './run-grpc-service.js';
export { createKeyedLock, DEFAULT_KEYED_LOCK_WAIT_MS } from './keyed-lock.js';
export type { KeyedLock } from './keyed-lock.js';
export { startPeriodicJob } from './periodic-job.js';
export type { JobLogger, PeriodicJob } from './periodic-job.js';
export { runConsumingService } from './run-consuming-service.js';
export { startObservability } from './start-observability.js';
export { watchedBatchConsumer } from './batch-consumer-counts.js';
export { consumingServiceEnv, consumingServiceFromEnv } from './consuming-service-env.js';
export type { ConsumingServiceNames } from './consuming-service-env.js';
export type {
  BackgroundWork,
  ConsumingServiceApp,
  ConsumingServiceConfig,
  ServiceParts,
} from './run-consuming-service.js';
export {
  createVersionedCache,
  DEFAULT_READ_MODEL_MAX_ENTRIES,
  DEFAULT_READ_MODEL_TTL_MS,
  NOTICED_READ_MODEL_TTL_MS,
  HEARD_READ_MODEL_TTL_MS,
} from './read-model/versioned-cache.js';
export type { VersionedCache, VersionedCacheSource } from './read-model/versioned-cache.js';
