import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts, type IdentityServiceClient, type IdentityServiceHandlers } from '@tap/contracts';
import { DomainError, defineErrors } from '@tap/errors';
import {
  createClient,
  createGrpcServer,
  GrpcStatus,
  INVALID_ERROR_CODE,
  unaryCall,
  unaryHandler,
  type GrpcServer,
} from '../src/index.js';
import { serverOptions, tlsOf } from './support/test-tls.js';
import { failure } from './support/failure.js';

/*
 * Issue #11: a `can` whose `action` held non-ASCII characters ended the entitlements process.
 * The domain error echoed the action in its details, grpc-kit put them into trailing metadata,
 * `Metadata.set` threw outside the handler's catch, and the exception ended the process. These
 * tests send what callers can send through the error path and expect an answer every time.
 */

const errors = defineErrors({
  UNKNOWN_ACTION: { kind: 'INVALID_ARGUMENT', message: 'Unknown action.' },
});

const HOSTILE = {
  nonAscii: 'BULK_ÜPLOAD ✓ 日本語 😀',
  control: 'a\u0000b\u0007c\u001bd\u007fe\nf\r\tg',
  jsonish: '"}{\\u0000\\',
  long: 'ä'.repeat(100_000),
};

const LONE = 'x\ud800y\udc00z';

const logged: string[] = [];
const logger = { error: (_object: object, message: string) => void logged.push(message) };

describe('unaryHandler with errors that echo hostile input', () => {
  let server: GrpcServer;
  let client: IdentityServiceClient;

  beforeAll(async () => {
    const handlers: Partial<IdentityServiceHandlers> = {
      // Echoes the caller's value in the details and the message, as a careless handler would.
      FindTenantBySlug: unaryHandler('FindTenantBySlug', logger, async (request) => {
        throw errors.create('UNKNOWN_ACTION', { message: request.slug, details: { action: request.slug } });
      }),
      // Throws before returning a promise.
      GetTenant: unaryHandler('GetTenant', logger, (): Promise<never> => {
        throw new Error('synchronous');
      }),
      // Lone surrogates (protobuf strings from callers are UTF-8, so they come from our own code).
      IssueAccessToken: unaryHandler('IssueAccessToken', logger, async () => {
        throw errors.create('UNKNOWN_ACTION', { message: LONE, details: { action: LONE } });
      }),
      // Details that JSON cannot encode.
      CreateTenant: unaryHandler('CreateTenant', logger, async () => {
        const details: Record<string, unknown> = { action: 'x' };
        details['self'] = details;
        throw errors.create('UNKNOWN_ACTION', { details });
      }),
      // A code that is not UPPER_SNAKE (a bug of ours) in a hand-made DomainError.
      GetJwks: unaryHandler('GetJwks', logger, async () => {
        throw new DomainError('bad code ü', 'INVALID_ARGUMENT', 'bad');
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
    client = createClient(
      contracts().identity.IdentityService,
      `127.0.0.1:${await server.listen('127.0.0.1', 0)}`,
      await tlsOf('gateway'),
    );
  });

  afterAll(async () => {
    client?.close();
    await server?.shutdown(500);
  });

  it.each(Object.entries(HOSTILE).filter(([name]) => name !== 'long'))(
    'carries %s details across the wire unchanged, with the status and the stable code',
    async (_name, value) => {
      const error = await failure(unaryCall(client, 'FindTenantBySlug', { slug: value }));
      expect(error.grpcStatus).toBe(GrpcStatus.INVALID_ARGUMENT);
      expect(error.reason).toBe('UNKNOWN_ACTION');
      expect(error.details).toEqual({ action: value });
      expect(error.message).toBe(value);
    },
  );

  it('carries lone surrogates in details, and replaces them in the status message', async () => {
    const request = { tenantId: 't', role: '', scopes: [], subject: '' };
    const error = await failure(unaryCall(client, 'IssueAccessToken', request));
    expect(error.grpcStatus).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(error.details).toEqual({ action: LONE });
    expect(error.message).toBe('x\ufffdy\ufffdz');
  });

  it('answers with the status and code, without details, when the details are too large', async () => {
    const error = await failure(unaryCall(client, 'FindTenantBySlug', { slug: HOSTILE.long }));
    expect(error.grpcStatus).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(error.reason).toBe('UNKNOWN_ACTION');
    expect(error.details).toBeUndefined();
    expect(error.message.length).toBeLessThanOrEqual(1_025);
  });

  it('answers INTERNAL when the handler throws synchronously', async () => {
    const error = await failure(unaryCall(client, 'GetTenant', {}, { deadlineMs: 5_000 }));
    expect(error.grpcStatus).toBe(GrpcStatus.INTERNAL);
    expect(error.message).toBe('internal error');
  });

  it('answers with the code and no details when the details cannot be encoded', async () => {
    const error = await failure(unaryCall(client, 'CreateTenant', { name: 'x', slug: '' }));
    expect(error.grpcStatus).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(error.reason).toBe('UNKNOWN_ACTION');
    expect(error.details).toBeUndefined();
  });

  it('sends a placeholder for a code that is not UPPER_SNAKE', async () => {
    const error = await failure(unaryCall(client, 'GetJwks', {}));
    expect(error.grpcStatus).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(error.reason).toBe(INVALID_ERROR_CODE);
  });

  it('refuses a caller credential that cannot be metadata, without throwing', async () => {
    let pending: Promise<unknown> = Promise.resolve();
    expect(() => {
      pending = unaryCall(client, 'GetJwks', {}, { authorization: 'Bearer tökén\u0000' });
    }).not.toThrow();
    const error = await failure(pending);
    expect(error.grpcStatus).toBe(GrpcStatus.UNAUTHENTICATED);
  });
});

describe('unaryHandler when sending the answer fails', () => {
  const call = () =>
    ({
      request: {},
      metadata: { get: () => [], getMap: () => ({}) },
      once: () => undefined,
    }) as unknown as Parameters<ReturnType<typeof unaryHandler>>[0];

  it('never throws, answers once more with a plain INTERNAL, and never a third time', async () => {
    const sent: unknown[] = [];
    const handler = unaryHandler('Test/Throwing', logger, async () => ({ ok: true }));
    const settled = new Promise<void>((resolve) => {
      handler(call(), (error) => {
        sent.push(error);
        if (sent.length === 2) setTimeout(resolve, 50);
        throw new Error('stream closed');
      });
    });
    await settled;
    expect(sent).toEqual([null, { code: GrpcStatus.INTERNAL, details: 'internal error' }]);
    expect(logged).toContain('gRPC answer could not be sent; answering INTERNAL');
  });

  it('answers INTERNAL when the error mapping itself throws', async () => {
    const sent: unknown[] = [];
    const hostile = new Proxy(new Error('x'), {
      getPrototypeOf: () => {
        throw new Error('trap');
      },
    });
    const handler = unaryHandler('Test/Mapping', logger, () => Promise.reject(hostile));
    await new Promise<void>((resolve) => {
      handler(call(), (error) => {
        sent.push(error);
        resolve();
      });
    });
    expect(sent).toEqual([{ code: GrpcStatus.INTERNAL, details: 'internal error' }]);
  });
});
