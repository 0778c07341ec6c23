import {
  loadPackageDefinition,
  type ChannelCredentials,
  Metadata,
  type ChannelOptions,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';
import { channelCredentials, channelOptions, serverNameOption } from './create-client.js';
import type { ServiceTls } from './tls/service-tls.js';

type CheckFn = (
  request: { service: string },
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response?: { status: string }) => void,
) => void;

interface HealthClient extends Client {
  check: CheckFn;
}

type HealthCtorType = new (
  target: string,
  creds: ChannelCredentials,
  options: ChannelOptions,
) => HealthClient;

let HealthCtor: HealthCtorType | undefined;

function healthConstructor() {
  if (!HealthCtor) {
    const definition = loadSync(protoPath, { keepCase: true, enums: String, defaults: true });
    const loaded = loadPackageDefinition(definition) as unknown as {
      grpc: { health: { v1: { Health: HealthCtorType } } };
    };
    HealthCtor = loaded.grpc.health.v1.Health;
  }
  return HealthCtor;
}

/**
 * A grpc.health.v1 client for a peer: `check()` resolves when the peer answers SERVING for
 * `service` ('' = the whole server) within the deadline, and rejects otherwise. `address` is a
 * gRPC target as for createClient (`host:port`, `dns:///name:port`, `ipv4:a:p,b:p`), over the
 * same kind of channel: each check goes to one READY address of the target, so it answers
 * "is some replica serving", which is what a caller's readiness needs.
 */
export function createHealthChecker(
  address: string,
  tls: ServiceTls,
  /** The peer's service identity (`identity`, `entitlements`, …): who must answer. */
  peer: string,
  service = '',
): { check(deadlineMs?: number): Promise<void>; close(): void } {
  const Ctor = healthConstructor();
  const client = new Ctor(address, channelCredentials(tls, peer), {
    ...channelOptions([]),
    ...serverNameOption(peer),
  });
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
