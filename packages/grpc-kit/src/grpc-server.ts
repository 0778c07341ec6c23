import {
  experimental,
  Server,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { memoiseFrozenEncoding } from './memo/frozen-encoding-memo.js';
import { memoisePeerCertificates } from './tls/peer-certificate-memo.js';
import { allowlistInterceptor, unlistedMethods, type RpcAllowlist } from './tls/rpc-allowlist.js';
import type { ServiceTls } from './tls/service-tls.js';

export const DEFAULT_GRPC_SHUTDOWN_TIMEOUT_MS = 3_000;
/**
 * Each client connection is closed (GOAWAY, ±10 % jitter) after this long. Callers resolve their
 * target again when a connection ends, so with a `dns:///` target (a headless Service) they find
 * replicas that started since, and a scale-out or rollout gets traffic within about this time.
 */
export const DEFAULT_GRPC_MAX_CONNECTION_AGE_MS = 30_000;
/** Calls still running on a connection closed for its age get this long to finish (> every deadline). */
export const DEFAULT_GRPC_MAX_CONNECTION_AGE_GRACE_MS = 10_000;

export interface GrpcServerOptions {
  /** This service's mTLS material: there is no plaintext listener. */
  readonly tls: ServiceTls;
  /** Who may call each method; every method of every added service must be listed. */
  readonly allowlist: RpcAllowlist;
  /** Default DEFAULT_GRPC_MAX_CONNECTION_AGE_MS. */
  readonly maxConnectionAgeMs?: number;
  /** Default DEFAULT_GRPC_MAX_CONNECTION_AGE_GRACE_MS. */
  readonly maxConnectionAgeGraceMs?: number;
}

export interface GrpcServer {
  readonly server: Server;
  /** Binds and starts; resolves with the bound port (0 picks a free one). */
  listen(host: string, port: number): Promise<number>;
  /** Marks every service NOT_SERVING, lets in-flight calls finish, then forces after the timeout. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/**
 * A gRPC server over mutual TLS with the standard grpc.health.v1 service. Every call's caller is
 * the SPIFFE identity of its client certificate, and a call whose caller is not on the method's
 * allowlist is refused before the handler runs (allowlistInterceptor). The server refuses to be
 * built when a method of an added service has no allowlist entry. Health is SERVING for every added
 * service (and the empty name) once listening, and NOT_SERVING from the start of shutdown.
 * Connections are closed gracefully at their maximum age (GrpcServerOptions), so that callers
 * balancing over a `dns:///` target look it up again.
 */
export function createGrpcServer(
  services: ReadonlyArray<{
    name: string;
    definition: ServiceDefinition;
    implementation: UntypedServiceImplementation;
  }>,
  options: GrpcServerOptions,
): GrpcServer {
  const unlisted = unlistedMethods(
    services.map((s) => s.definition),
    options.allowlist,
  );
  if (unlisted.length > 0) throw new Error(`No allowlist entry for ${unlisted.join(', ')}`);
  // The allowlist reads the caller's certificate on every call: once per connection is enough.
  memoisePeerCertificates();
  const server = new Server({
    interceptors: [allowlistInterceptor(options.tls, options.allowlist)],
    'grpc.max_receive_message_length': 4 * 1024 * 1024,
    // No channelz service is exposed, so its per-call bookkeeping would only cost every call.
    'grpc.enable_channelz': 0,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? DEFAULT_GRPC_MAX_CONNECTION_AGE_MS,
    'grpc.max_connection_age_grace_ms':
      options.maxConnectionAgeGraceMs ?? DEFAULT_GRPC_MAX_CONNECTION_AGE_GRACE_MS,
  });
  const names = ['', ...services.map((s) => s.name)];
  const health = new HealthImplementation(Object.fromEntries(names.map((n) => [n, 'NOT_SERVING' as const])));
  health.addToServer(server);
  for (const service of services)
    server.addService(withFrozenAnswersEncodedOnce(service.definition), service.implementation);
  // The same provider is the CA and the identity: one set of files; a client certificate is required.
  const credentials = experimental.createCertificateProviderServerCredentials(
    options.tls.provider,
    options.tls.provider,
    true,
  );

  return {
    server,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.bindAsync(`${host}:${port}`, credentials, (error, bound) => {
          if (error) return reject(error);
          for (const name of names) health.setStatus(name, 'SERVING');
          return resolve(bound);
        });
      }),
    shutdown: (timeoutMs = DEFAULT_GRPC_SHUTDOWN_TIMEOUT_MS) =>
      new Promise<void>((resolve) => {
        for (const name of names) health.setStatus(name, 'NOT_SERVING');
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

/**
 * Every method's answer encoded through memoiseFrozenEncoding: a handler that returns the same
 * frozen message again (its memo of an unchanged answer) sends the bytes encoded the first time.
 */
function withFrozenAnswersEncodedOnce(definition: ServiceDefinition): ServiceDefinition {
  return Object.fromEntries(
    Object.entries(definition).map(([name, method]) => [
      name,
      { ...method, responseSerialize: memoiseFrozenEncoding(method.responseSerialize) },
    ]),
  );
}
