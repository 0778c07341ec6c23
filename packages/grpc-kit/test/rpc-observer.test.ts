import { afterAll, describe, expect, it } from '@jest/globals';
import { contracts, type IdentityServiceHandlers } from '@tap/contracts';
import {
  channelServiceConfig,
  createClient,
  createGrpcServer,
  GrpcStatus,
  isIdempotentRead,
  setRpcObserver,
  unaryCall,
  unaryHandler,
} from '../src/index.js';
import { serverOptions, tlsOf } from './support/test-tls.js';

const silent = { error: () => undefined };

describe('the RpcObserver', () => {
  afterAll(() => setRpcObserver(undefined));

  it('hears every finished call on both sides, with its status code', async () => {
    const heard: string[] = [];
    setRpcObserver({
      serverCall: (method, code, seconds) => heard.push(`server ${method} ${code} ${seconds >= 0}`),
      clientCall: (method, code) => heard.push(`client ${method} ${code}`),
    });
    const handlers: Partial<IdentityServiceHandlers> = {
      GetJwks: unaryHandler('IdentityService/GetJwks', silent, async () => ({ keys: [] })),
      FindTenantBySlug: unaryHandler('IdentityService/FindTenantBySlug', silent, async () => {
        throw new Error('boom');
      }),
    };
    const server = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: contracts().identity.IdentityService.service,
          implementation: handlers as IdentityServiceHandlers,
        },
      ],
      await serverOptions(),
    );
    const client = createClient(
      contracts().identity.IdentityService,
      `127.0.0.1:${await server.listen('127.0.0.1', 0)}`,
      await tlsOf('gateway'),
    );
    try {
      await unaryCall(client, 'GetJwks', {});
      await unaryCall(client, 'FindTenantBySlug', { slug: 'x' }).catch(() => undefined);
    } finally {
      client.close();
      await server.shutdown(500);
    }
    expect(heard).toEqual([
      'server IdentityService/GetJwks 0 true',
      'client IdentityService/GetJwks 0',
      `server IdentityService/FindTenantBySlug ${GrpcStatus.INTERNAL} true`,
      `client IdentityService/FindTenantBySlug ${GrpcStatus.INTERNAL}`,
    ]);
  });
});

describe("the channel's service config", () => {
  it('retries only reads, named by their full service name, and balances every call round-robin', () => {
    expect(
      ['GetTenant', 'ListOAuthClients', 'FindTenantBySlug', 'Can', 'CreateTenant', 'Login', 'Canary'].filter(
        isIdempotentRead,
      ),
    ).toEqual(['GetTenant', 'ListOAuthClients', 'FindTenantBySlug', 'Can']);
    const config = JSON.parse(
      channelServiceConfig([
        '/tap.identity.v1.IdentityService/GetTenant',
        '/tap.identity.v1.IdentityService/CreateTenant',
      ]),
    ) as {
      loadBalancingConfig: unknown[];
      methodConfig: Array<{ name: unknown[]; retryPolicy: { retryableStatusCodes: string[] } }>;
    };
    expect(config.loadBalancingConfig).toEqual([{ round_robin: {} }]);
    expect(config.methodConfig).toHaveLength(1);
    expect(config.methodConfig[0]?.name).toEqual([
      { service: 'tap.identity.v1.IdentityService', method: 'GetTenant' },
    ]);
    expect(config.methodConfig[0]?.retryPolicy.retryableStatusCodes).toEqual(['UNAVAILABLE']);
  });
});
