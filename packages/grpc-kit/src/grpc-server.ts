import {
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

export const DEFAULT_GRPC_SHUTDOWN_TIMEOUT_MS = 3_000;

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
 */
export function createGrpcServer(
  services: ReadonlyArray<{
    name: string;
    definition: ServiceDefinition;
    implementation: UntypedServiceImplementation;
  }>,
): GrpcServer {
  const server = new Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });
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
