import { tlsFromPem } from '@tap/grpc-kit';
import { testIdentity } from '@tap/testkit';
import { createServiceClients, type ServiceClients } from '../../src/clients.js';

/**
 * Clients of every service at an address where nothing answers (port 9, discard), with the
 * gateway's test certificate: for gateways whose tested routes never reach a service.
 */
export async function unreachableServiceClients(): Promise<ServiceClients> {
  return createServiceClients(
    {
      identity: '127.0.0.1:9',
      adoption: '127.0.0.1:9',
      entitlements: '127.0.0.1:9',
      notifications: '127.0.0.1:9',
    },
    tlsFromPem(await testIdentity('gateway')),
  );
}
