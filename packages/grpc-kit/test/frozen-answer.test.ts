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

describe('frozen answers over a real gRPC server', () => {
  let server: GrpcServer;
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
    plain = createClient(contracts().identity.IdentityService, address, tls);
  });

  afterAll(async () => {
    plain?.close();
    await server?.shutdown(500);
  });

  it('decodes every reply into its own object, an answer as it is now', async () => {
    tenants.set('t1', { id: 't1', name: 'Before', slug: 't1', createdAt: '2026-01-01T00:00:00.000Z' });
    const first = await unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer t1' });
    tenants.set('t1', { ...tenants.get('t1')!, name: 'After' });
    const second = await unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer t1' });
    expect(first.name).toBe('Before');
    expect(second.name).toBe('After');
    expect(Object.isFrozen(first)).toBe(false);
  });

  it('sends a frozen answer returned again with the same content', async () => {
    const answers = await Promise.all([
      unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer tf' }),
      unaryCall(plain, 'GetTenant', {}, { authorization: 'Bearer tf' }),
    ]);
    for (const answer of answers) expect(answer).toEqual(frozen);
  });
});
