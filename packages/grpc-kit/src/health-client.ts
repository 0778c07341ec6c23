import { credentials, loadPackageDefinition, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

type CheckFn = (
  request: { service: string },
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response?: { status: string }) => void,
) => void;

interface HealthClient extends Client {
  check: CheckFn;
}

let HealthCtor:
  (new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => HealthClient) | undefined;

function healthConstructor() {
  if (!HealthCtor) {
    const definition = loadSync(protoPath, { keepCase: true, enums: String, defaults: true });
    const loaded = loadPackageDefinition(definition) as unknown as {
      grpc: {
        health: {
          v1: {
            Health: new (
              address: string,
              creds: ReturnType<typeof credentials.createInsecure>,
            ) => HealthClient;
          };
        };
      };
    };
    HealthCtor = loaded.grpc.health.v1.Health;
  }
  return HealthCtor;
}

/**
 * A grpc.health.v1 client for a peer: `check()` resolves when the peer answers SERVING for
 * `service` ('' = the whole server) within the deadline, and rejects otherwise.
 */
export function createHealthChecker(
  address: string,
  service = '',
): { check(deadlineMs?: number): Promise<void>; close(): void } {
  const Ctor = healthConstructor();
  const client = new Ctor(address, credentials.createInsecure());
  return {
    check: (deadlineMs = 1_000) =>
      new Promise((resolve, reject) => {
        client.check(
          { service },
          new Metadata(),
          { deadline: new Date(Date.now() + deadlineMs) },
          (error, response) => {
            if (error) return reject(new Error(`${address}: ${error.details || error.message}`));
            if (response?.status !== 'SERVING')
              return reject(new Error(`${address}: ${response?.status ?? 'UNKNOWN'}`));
            return resolve();
          },
        );
      }),
    close: () => client.close(),
  };
}
