export { bool, num, port, str } from 'envalid';
export {
  csv,
  durationMs,
  httpUrl,
  identifier,
  listenPort,
  mongoUrl,
  natsUrl,
  redisUrl,
  secret,
} from './validators.js';
export { ConfigError, formatIssue, parseEnv } from './parse-env.js';
export type { ConfigIssue } from './parse-env.js';
export { EXIT_CONFIG, loadConfigOrExit } from './exit-on-config-error.js';
export { DEFAULT_EVENTS_DUPLICATE_WINDOW_MS, eventsConfig, eventsEnv } from './events-env.js';
export type { EventsConfig } from './events-env.js';
export {
  DOMAIN_STREAM_ENV,
  domainStreamFromEnv,
  LOG_LEVELS,
  serviceEnv,
  serviceFromEnv,
  TELEMETRY_ENV,
  telemetryFromEnv,
} from './service-env.js';
export type { DomainStreamConfig } from './service-env.js';
