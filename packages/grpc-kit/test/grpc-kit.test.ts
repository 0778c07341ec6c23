import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts, type IdentityServiceClient, type IdentityServiceHandlers } from '@tap/contracts';
import { defineErrors } from '@tap/errors';
import {
  createClient,
  createGrpcServer,
  createHealthChecker,
  GrpcStatus,
  unaryCall,
  unaryHandler,
  type GrpcServer,
} from '../src/index.js';
import { serverOptions, tlsOf } from './support/test-tls.js';
import { failure } from './support/failure.js';

const errors = defineErrors({ TENANT_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such tenant' } });
const silent = { error: () => undefined };

describe('grpc-kit over a real gRPC server', () => {
  let server: GrpcServer;
  let client: IdentityServiceClient;
  let address: string;
  let seenAuthorization: string | undefined;
  const signals: Record<string, AbortSignal> = {};

  beforeAll(async () => {
    // Only the methods these tests call; grpc-js answers UNIMPLEMENTED for the rest.
    const handlers: Partial<IdentityServiceHandlers> = {
      GetTenant: unaryHandler('GetTenant', silent, async (_request, ctx) => {
        seenAuthorization = ctx.metadata.get('authorization')[0] as string | undefined;
        signals['GetTenant'] = ctx.signal;
        return { id: 't1', name: 'Acme', slug: 'acme', createdAt: '2026-01-01T00:00:00.000Z' };
      }),
      CreateTenant: unaryHandler('CreateTenant', silent, async () => {
        throw errors.create('TENANT_NOT_FOUND', { details: { tenantId: 'x' } });
      }),
      FindTenantBySlug: unaryHandler('FindTenantBySlug', silent, async () => {
        throw new Error('database password is hunter2');
      }),
      IssueAccessToken: unaryHandler('IssueAccessToken', silent, async (_request, ctx) => {
        signals['IssueAccessToken'] = ctx.signal;
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { accessToken: 'late', expiresIn: 1 };
      }),
      GetJwks: unaryHandler('GetJwks', silent, async () => ({ keys: [] })),
      // Handlers that call another service (here: this one) and let its failure through.
      CreateUser: unaryHandler('CreateUser', silent, async () => {
        await unaryCall(
          client,
          'IssueAccessToken',
          { tenantId: 't', role: '', scopes: [], subject: '' },
          { deadlineMs: 50 },
        );
        return { id: 'u', tenantId: 't', email: 'e', role: 'OWNER', createdAt: '' };
      }),
      SetUserPassword: unaryHandler('SetUserPassword', silent, async () => {
        await unaryCall(client, 'CreateTenant', { name: 'x', slug: '' });
        return { id: 'u', tenantId: 't', email: 'e', role: 'OWNER', createdAt: '' };
      }),
    };
    server = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: contracts().identity.IdentityService.service,
          implementation: handlers as IdentityServiceHandlers,
        },
      ],
      await serverOptions(),
    );
    address = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
    client = createClient(contracts().identity.IdentityService, address, await tlsOf('gateway'));
  });

  afterAll(async () => {
    client?.close();
    await server?.shutdown(500);
  });

  it('returns typed responses and forwards the caller credential', async () => {
    const tenant = await unaryCall(client, 'GetTenant', {}, { authorization: 'Bearer abc' });
    expect(tenant).toEqual({ id: 't1', name: 'Acme', slug: 'acme', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(seenAuthorization).toBe('Bearer abc');
  });

  it('carries a domain error as its status, stable code and details', async () => {
    const error = await failure(unaryCall(client, 'CreateTenant', { name: 'x', slug: '' }));
    expect(error.grpcStatus).toBe(GrpcStatus.NOT_FOUND);
    expect(error.reason).toBe('TENANT_NOT_FOUND');
    expect(error.details).toEqual({ tenantId: 'x' });
    expect(error.message).toBe('No such tenant');
  });

  it('answers an unexpected error with INTERNAL and nothing of its message', async () => {
    const error = await failure(unaryCall(client, 'FindTenantBySlug', { slug: 'x' }));
    expect(error.grpcStatus).toBe(GrpcStatus.INTERNAL);
    expect(error.message).toBe('internal error');
    expect(error.reason).toBeUndefined();
  });

  it('puts a deadline on every call', async () => {
    const error = await failure(
      unaryCall(
        client,
        'IssueAccessToken',
        { tenantId: 't', role: '', scopes: [], subject: '' },
        { deadlineMs: 50 },
      ),
    );
    expect(error.grpcStatus).toBe(GrpcStatus.DEADLINE_EXCEEDED);
  });

  it('aborts the signal of a call its caller gave up on, never of one it answered', async () => {
    await unaryCall(client, 'GetTenant', {}, { authorization: 'Bearer abc' });
    await failure(
      unaryCall(
        client,
        'IssueAccessToken',
        { tenantId: 't', role: '', scopes: [], subject: '' },
        { deadlineMs: 50 },
      ),
    );
    const late = signals['IssueAccessToken'];
    if (!late?.aborted) await new Promise((resolve) => late?.addEventListener('abort', resolve));
    expect(late?.aborted).toBe(true);
    // grpc-js says 'cancelled' after an answered call too; by now it has for GetTenant.
    expect(signals['GetTenant']?.aborted).toBe(false);
  });

  it('answers UNAVAILABLE when a service it called did not answer in time, INTERNAL for its other failures', async () => {
    const slow = await failure(
      unaryCall(client, 'CreateUser', { tenantId: 't', role: 'OWNER' }, { deadlineMs: 5_000 }),
    );
    expect(slow.grpcStatus).toBe(GrpcStatus.UNAVAILABLE);
    expect(slow.message).toBe('a dependency is unavailable, retry later');
    // A downstream refusal the handler did not map is a bug of ours, not an outage.
    const refused = await failure(
      unaryCall(client, 'SetUserPassword', { email: 'e', password: 'p' }, { deadlineMs: 5_000 }),
    );
    expect(refused.grpcStatus).toBe(GrpcStatus.INTERNAL);
  });

  it('answers grpc.health.v1 SERVING while up', async () => {
    const checker = createHealthChecker(address, await tlsOf('gateway'), 'identity');
    await expect(checker.check()).resolves.toBeUndefined();
    const named = createHealthChecker(
      address,
      await tlsOf('gateway'),
      'identity',
      'tap.identity.v1.IdentityService',
    );
    await expect(named.check()).resolves.toBeUndefined();
    checker.close();
    named.close();
  });
});

describe('grpc-kit shutdown', () => {
  it('finishes a call in flight, then refuses new ones', async () => {
    const handlers = {
      GetJwks: unaryHandler('GetJwks', silent, async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { keys: [] };
      }),
    } as unknown as IdentityServiceHandlers;
    const server = createGrpcServer(
      [{ name: 'svc', definition: contracts().identity.IdentityService.service, implementation: handlers }],
      await serverOptions(),
    );
    const address = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
    const client = createClient(contracts().identity.IdentityService, address, await tlsOf('gateway'));
    await unaryCall(client, 'GetJwks', {});
    const inFlight = unaryCall(client, 'GetJwks', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = server.shutdown(2_000);
    await expect(inFlight).resolves.toEqual({ keys: [] });
    await stopped;
    const after = await failure(unaryCall(client, 'GetJwks', {}, { deadlineMs: 300 }));
    expect([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED]).toContain(after.grpcStatus);
    client.close();
  });
});
