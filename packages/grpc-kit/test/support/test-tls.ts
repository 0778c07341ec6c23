import { contracts } from '@tap/contracts';
import { testIdentity } from '@tap/testkit';
import { tlsFromPem, type GrpcServerOptions, type RpcAllowlist, type ServiceTls } from '../../src/index.js';

/** Every IdentityService method open to the gateway: these tests are about transport, not policy. */
export const GATEWAY_ONLY: RpcAllowlist = Object.fromEntries(
  Object.values(contracts().identity.IdentityService.service).map((method) => [method.path, ['gateway']]),
);

/** `service`'s certificate from the test PKI. */
export async function tlsOf(service: string): Promise<ServiceTls> {
  return tlsFromPem(await testIdentity(service));
}

/** A test server's options: the `identity` certificate and GATEWAY_ONLY. */
export async function serverOptions(): Promise<GrpcServerOptions> {
  return { tls: await tlsOf('identity'), allowlist: GATEWAY_ONLY };
}
