import { str } from 'envalid';
import { httpUrl, identifier, listenPort, mongoUrl } from './validators.js';

/** The log levels LOG_LEVEL accepts (pino's, and `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Where traces go and how much is logged: every process reads these two, to spread into its specs. */
export const TELEMETRY_ENV = {
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl({ default: undefined }),
  LOG_LEVEL: str({ default: 'info', choices: LOG_LEVELS }),
};

/** The parsed TELEMETRY_ENV as the `otlpTracesUrl` and `logLevel` of a service's config. */
export function telemetryFromEnv(e: {
  readonly OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: string | undefined;
  readonly LOG_LEVEL: string;
}): { readonly otlpTracesUrl: string | undefined; readonly logLevel: string } {
  return { otlpTracesUrl: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, logLevel: e.LOG_LEVEL };
}

/** The domain-event stream (`domain.<tenantId>.<type>`) its producers and its consumer share. */
export interface DomainStreamConfig {
  readonly streamName: string;
  readonly subjectPrefix: string;
}

/** DOMAIN_EVENTS_STREAM and DOMAIN_EVENTS_SUBJECT_PREFIX, with the same defaults in every service. */
export const DOMAIN_STREAM_ENV = {
  DOMAIN_EVENTS_STREAM: identifier({ default: 'DOMAIN_EVENTS' }),
  DOMAIN_EVENTS_SUBJECT_PREFIX: identifier({ default: 'domain' }),
};

/** The parsed DOMAIN_STREAM_ENV as a frozen DomainStreamConfig. */
export function domainStreamFromEnv(e: {
  readonly DOMAIN_EVENTS_STREAM: string;
  readonly DOMAIN_EVENTS_SUBJECT_PREFIX: string;
}): DomainStreamConfig {
  return Object.freeze({ streamName: e.DOMAIN_EVENTS_STREAM, subjectPrefix: e.DOMAIN_EVENTS_SUBJECT_PREFIX });
}

/** The variables `serviceEnv(prefix)` names after its service (`ADOPTION_GRPC_PORT`, …). */
type ServiceEnvKeys<P extends string> = {
  readonly grpcPort: `${P}_GRPC_PORT`;
  readonly httpPort: `${P}_HTTP_PORT`;
  readonly database: `${P}_MONGO_DB`;
};

function serviceEnvKeys<P extends string>(prefix: P): ServiceEnvKeys<P> {
  return { grpcPort: `${prefix}_GRPC_PORT`, httpPort: `${prefix}_HTTP_PORT`, database: `${prefix}_MONGO_DB` };
}

/**
 * Where a gRPC service listens and keeps its data, to spread into its parseEnv specs: HOST,
 * `<PREFIX>_GRPC_PORT`, `<PREFIX>_HTTP_PORT` (the probes), MONGO_URL (required) and
 * `<PREFIX>_MONGO_DB` (the service's own database, named after it by default).
 */
export function serviceEnv<P extends string>(
  prefix: P,
  defaults: { readonly grpcPort: number; readonly httpPort: number; readonly database: string },
) {
  const keys = serviceEnvKeys(prefix);
  return {
    HOST: str({ default: '127.0.0.1' }),
    MONGO_URL: mongoUrl(),
    // A computed key widens to `string`: the casts restore the names the keys were built from.
    ...({
      [keys.grpcPort]: listenPort({ default: defaults.grpcPort }),
      [keys.httpPort]: listenPort({ default: defaults.httpPort }),
    } as Record<`${P}_GRPC_PORT` | `${P}_HTTP_PORT`, ReturnType<typeof listenPort>>),
    ...({ [keys.database]: identifier({ default: defaults.database }) } as Record<
      `${P}_MONGO_DB`,
      ReturnType<typeof identifier>
    >),
  };
}

type Ports<P extends string> = Readonly<Record<`${P}_GRPC_PORT` | `${P}_HTTP_PORT`, number>>;
type Database<P extends string> = Readonly<Record<`${P}_MONGO_DB`, string>>;

/** The parsed `serviceEnv(prefix)` as the host, ports and MongoDB of a service's config. */
export function serviceFromEnv<P extends string>(
  prefix: P,
  e: { readonly HOST: string; readonly MONGO_URL: string } & Ports<P> & Database<P>,
): {
  readonly host: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly mongo: { readonly url: string; readonly database: string };
} {
  const keys = serviceEnvKeys(prefix);
  const ports: Ports<P> = e;
  const database: Database<P> = e;
  return {
    host: e.HOST,
    grpcPort: ports[keys.grpcPort],
    httpPort: ports[keys.httpPort],
    mongo: Object.freeze({ url: e.MONGO_URL, database: database[keys.database] }),
  };
}
