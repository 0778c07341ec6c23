import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts, type IdentityServiceClient, type IdentityServiceHandlers } from '@tap/contracts';
import {
  createClient,
  createGrpcServer,
  deepFreeze,
  unaryCall,
  unaryHandler,
  type GrpcServer,
} from '../src/index.js';
import { serverOptions, tlsOf } from './support/test-tls.js';

const silent = { error: () => undefined };

describe('memoised replies and frozen answers over a real gRPC server', () => {
  let server: GrpcServer;
  let memoising: IdentityServiceClient;
  let plain: IdentityServiceClient;
  // What GetTenant answers, per tenant id asked for; a frozen answer is the handler's memo.
  const tenants = new Map<string, { id: string; name: string; slug: string; createdAt: string }>();
  const frozen = deepFreeze({ id: 'tf', name: 'Frozen', slug: 'frozen', createdAt: '2026-01-01T00:00:00Z' });

  beforeAll(async () => {
    const handlers: Partial<IdentityServiceHandlers> = {
      // GetTenant names no tenant: the caller's credential does (`Bearer <tenant id>` here).
      GetTenant: unaryHandler('GetTenant', silent, async (_request, ctx) => {
        const id = String(ctx.metadata.get('authorization')[0]).slice('Bearer '.length);
        return id === 'tf' ? frozen : { ...tenants.get(id)! };
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
    const address = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
    const tls = await tlsOf('gateway');
    memoising = createClient(contracts().identity.IdentityService, address, tls, { memoiseReplies: {} });
    plain = createClient(contracts().identity.IdentityService, address, tls);
  });

  afterAll(async () => {
    memoising?.close();
    plain?.close();
    await server?.shutdown(500);
  });

  const tenant = (id: string, name: string) =>
    tenants.set(id, { id, name, slug: id, createdAt: '2026-01-01T00:00:00.000Z' });

  it('hands the same frozen reply to callers that received the same bytes', async () => {
    tenant('t1', 'Acme');
    const first = await unaryCall(memoising, 'GetTenant', {}, { authorization: 'Bearer t1' });
    const second = await unaryCall(memoising, 'GetTenant', {}, { authorization: 'Bearer t1' });
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // A client without the option decodes every reply into its own object.
    const own = await unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer t1' });
    expect(own).toEqual(first);
    expect(Object.isFrozen(own)).toBe(false);
  });

  it('shows a changed answer at once and never another tenant’s', async () => {
    tenant('t2', 'Before');
    tenant('t3', 'Other');
    expect((await unaryCall(memoising, 'GetTenant', {}, { authorization: 'Bearer t2' })).name).toBe('Before');
    tenant('t2', 'After');
    expect((await unaryCall(memoising, 'GetTenant', {}, { authorization: 'Bearer t2' })).name).toBe('After');
    expect((await unaryCall(memoising, 'GetTenant', {}, { authorization: 'Bearer t3' })).name).toBe('Other');
  });

  it('sends a frozen answer returned again with the same content', async () => {
    const answers = await Promise.all([
      unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer tf' }),
      unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer tf' }),
    ]);
    for (const answer of answers) expect(answer).toEqual(frozen);
  });
});
