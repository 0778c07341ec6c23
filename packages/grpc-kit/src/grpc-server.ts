import {
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

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
 * A gRPC server with the standard grpc.health.v1 service. Health is SERVING for every added
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
  options: GrpcServerOptions = {},
): GrpcServer {
  const server = new Server({
    'grpc.max_receive_message_length': 4 * 1024 * 1024,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? DEFAULT_GRPC_MAX_CONNECTION_AGE_MS,
    'grpc.max_connection_age_grace_ms':
      options.maxConnectionAgeGraceMs ?? DEFAULT_GRPC_MAX_CONNECTION_AGE_GRACE_MS,
  });
  const names = ['', ...services.map((s) => s.name)];
  const health = new HealthImplementation(Object.fromEntries(names.map((n) => [n, 'NOT_SERVING' as const])));
  health.addToServer(server);
  for (const service of services) server.addService(service.definition, service.implementation);

  return {
    server,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) => {
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
