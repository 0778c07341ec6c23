import { contracts, type IdentityServiceClient } from '@tap/contracts';
import { createClient, tlsFromPem, type ServiceTls } from '@tap/grpc-kit';
import { clientPerCaller, RPC_ALLOWLIST } from '@tap/service-auth';
import { testIdentity } from '@tap/testkit';

/** `service`'s certificate from this test process's PKI. */
export async function tlsOf(service: string): Promise<ServiceTls> {
  return tlsFromPem(await testIdentity(service));
}

/**
 * A client of identity at `address` that calls each method as the operator when the allowlist
 * admits the operator for it, and as the gateway otherwise (Login, Refresh, GetTenant, ...).
 */
export async function identityClientAt(address: string): Promise<IdentityServiceClient> {
  const service = contracts().identity.IdentityService;
  const operator = createClient(service, address, await tlsOf('operator'));
  const gateway = createClient(service, address, await tlsOf('gateway'));
  const client = clientPerCaller(
    [
      ['operator', operator],
      ['gateway', gateway],
    ],
    RPC_ALLOWLIST,
  );
  const close = operator.close.bind(operator);
  operator.close = () => {
    close();
    gateway.close();
  };
  return client;
}
