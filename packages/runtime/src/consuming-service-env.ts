import {
  DOMAIN_STREAM_ENV,
  domainStreamFromEnv,
  eventsConfig,
  eventsEnv,
  identifier,
  serviceEnv,
  serviceFromEnv,
  TELEMETRY_ENV,
  telemetryFromEnv,
  type DomainStreamConfig,
  type EventsConfig,
} from '@tap/config';
import { GRPC_TLS_ENV, grpcTlsFromEnv, TOKEN_CHECK_ENV, tokenCheckFromEnv } from '@tap/service-auth';
import type { ConsumingServiceConfig } from './run-consuming-service.js';

/** A consuming service's name as its variables spell it (`ADOPTION`) and as its defaults do (`adoption`). */
export interface ConsumingServiceNames<P extends string> {
  readonly prefix: P;
  /** The default of its database (`<PREFIX>_MONGO_DB`) and of its durable consumer (`<PREFIX>_CONSUMER`). */
  readonly name: string;
  readonly grpcPort: number;
  readonly httpPort: number;
}

/**
 * Every variable runConsumingService needs, to spread into a consuming service's parseEnv specs
 * beside its own: GRPC_TLS_*, serviceEnv's listen and MongoDB variables, the product-event stream
 * and the service's `<PREFIX>_CONSUMER`, the domain stream, TOKEN_CHECK_ENV and TELEMETRY_ENV.
 */
export function consumingServiceEnv<P extends string>(names: ConsumingServiceNames<P>) {
  const { prefix, name, grpcPort, httpPort } = names;
  return {
    ...GRPC_TLS_ENV,
    ...serviceEnv(prefix, { grpcPort, httpPort, database: name }),
    ...eventsEnv(),
    // A computed key widens to `string`: the cast restores the name it was built from.
    ...({ [`${prefix}_CONSUMER`]: identifier({ default: name }) } as Record<
      `${P}_CONSUMER`,
      ReturnType<typeof identifier>
    >),
    ...DOMAIN_STREAM_ENV,
    ...TOKEN_CHECK_ENV,
    ...TELEMETRY_ENV,
  };
}

type ConsumingServiceEnv<P extends string> = Parameters<typeof grpcTlsFromEnv>[0] &
  Parameters<typeof serviceFromEnv<P>>[1] &
  Parameters<typeof eventsConfig>[0] & { readonly NATS_URL: string } & Readonly<
    Record<`${P}_CONSUMER`, string>
  > &
  Parameters<typeof domainStreamFromEnv>[0] &
  Parameters<typeof tokenCheckFromEnv>[0] &
  Parameters<typeof telemetryFromEnv>[0];

/** The parsed `consumingServiceEnv` as the part of a service's frozen config runConsumingService reads. */
export function consumingServiceFromEnv<P extends string>(
  prefix: P,
  e: ConsumingServiceEnv<P>,
): ConsumingServiceConfig & { readonly events: EventsConfig; readonly domain: DomainStreamConfig } {
  const consumer: Readonly<Record<`${P}_CONSUMER`, string>> = e;
  return {
    grpcTls: Object.freeze(grpcTlsFromEnv(e)),
    ...serviceFromEnv(prefix, e),
    nats: Object.freeze({ url: e.NATS_URL }),
    events: eventsConfig(e, consumer[`${prefix}_CONSUMER`]),
    domain: domainStreamFromEnv(e),
    ...tokenCheckFromEnv(e),
    ...telemetryFromEnv(e),
  };
}
