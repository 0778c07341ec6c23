import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentials } from '@grpc/grpc-js';
import { contracts, type IdentityServiceClient, type IdentityServiceHandlers } from '@tap/contracts';
import { createCertificateAuthority, loadCertificateAuthority, testIdentity } from '@tap/testkit';
import {
  createClient,
  createGrpcServer,
  GrpcStatus,
  RemoteCallError,
  tlsFromFiles,
  tlsFromPem,
  unaryCall,
  unaryHandler,
  type GrpcServer,
  type RpcAllowlist,
} from '../src/index.js';
import { tlsOf } from './support/test-tls.js';

const silent = { error: () => undefined };
const IDENTITY = contracts().identity.IdentityService;
const paths = Object.values(IDENTITY.service).map((method) => method.path);
// GetJwks for the gateway only; every other method for the operator only. Refusals are shown with
// CreateTenant, a write: it fails fast, where a read would wait for a connection until its deadline.
const ALLOWLIST: RpcAllowlist = Object.fromEntries(
  paths.map((path) => [path, path.endsWith('/GetJwks') ? ['gateway'] : ['operator']]),
);

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return GrpcStatus.OK;
  } catch (error) {
    if (error instanceof RemoteCallError) return error.grpcStatus;
    throw error;
  }
}

function handlers(onCall: () => void): IdentityServiceHandlers {
  return {
    GetJwks: unaryHandler('GetJwks', silent, async () => {
      onCall();
      return { keys: [] };
    }),
    CreateTenant: unaryHandler('CreateTenant', silent, async () => {
      onCall();
      return { id: 't', name: 'n', slug: 's', createdAt: '2026-01-01T00:00:00.000Z' };
    }),
  } as Partial<IdentityServiceHandlers> as IdentityServiceHandlers;
}

describe('mutual TLS and the RPC allowlist', () => {
  let server: GrpcServer;
  let address: string;
  let handled = 0;
  const clients: IdentityServiceClient[] = [];
  const clientAs = async (service: string) => {
    const client = createClient(IDENTITY, address, await tlsOf(service));
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: IDENTITY.service,
          implementation: handlers(() => (handled += 1)),
        },
      ],
      { tls: await tlsOf('identity'), allowlist: ALLOWLIST },
    );
    address = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server?.shutdown(500);
  });

  it('serves a caller the allowlist names for the method', async () => {
    expect(await statusOf(unaryCall(await clientAs('gateway'), 'GetJwks', {}))).toBe(GrpcStatus.OK);
    expect(
      await statusOf(unaryCall(await clientAs('operator'), 'CreateTenant', { name: 'x', slug: '' })),
    ).toBe(GrpcStatus.OK);
  });

  it('refuses an identity the method does not list with PERMISSION_DENIED, before the handler runs', async () => {
    const before = handled;
    const gateway = await clientAs('gateway');
    expect(await statusOf(unaryCall(gateway, 'CreateTenant', { name: 'x', slug: '' }))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    expect(await statusOf(unaryCall(await clientAs('adoption'), 'GetJwks', {}))).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    expect(handled).toBe(before);
  });

  it('refuses a certificate of a trusted CA for another namespace (UNAUTHENTICATED): same name, another workload', async () => {
    const ca = await createCertificateAuthority();
    const sameCaOtherNamespace = await loadCertificateAuthority(ca.certPem, ca.keyPem, {
      namespace: 'elsewhere',
    });
    const server = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: IDENTITY.service,
          implementation: handlers(() => undefined),
        },
      ],
      { tls: tlsFromPem(await ca.issue('identity')), allowlist: ALLOWLIST },
    );
    const port = await server.listen('127.0.0.1', 0);
    const stranger = await sameCaOtherNamespace.issue('gateway');
    expect(stranger.spiffeId).toBe('spiffe://tap.local/ns/elsewhere/sa/gateway');
    const client = new IDENTITY(
      `127.0.0.1:${port}`,
      credentials.createSsl(Buffer.from(stranger.ca), Buffer.from(stranger.key), Buffer.from(stranger.cert), {
        checkServerIdentity: () => undefined,
      }),
    );
    try {
      expect(await statusOf(unaryCall(client, 'GetJwks', {}))).toBe(GrpcStatus.UNAUTHENTICATED);
    } finally {
      client.close();
      await server.shutdown(500);
    }
  });

  it('refuses a client without a certificate at the handshake', async () => {
    const ca = Buffer.from((await testIdentity('gateway')).ca);
    const Ctor = IDENTITY;
    const bare = new Ctor(
      address,
      credentials.createSsl(ca, null, null, { checkServerIdentity: () => undefined }),
    );
    clients.push(bare);
    expect(
      await statusOf(unaryCall(bare, 'CreateTenant', { name: 'x', slug: '' }, { deadlineMs: 2_000 })),
    ).toBe(GrpcStatus.UNAVAILABLE);
  });

  it('refuses a plaintext client', async () => {
    const plain = new IDENTITY(address, credentials.createInsecure());
    clients.push(plain);
    expect([GrpcStatus.UNAVAILABLE, GrpcStatus.INTERNAL]).toContain(
      await statusOf(unaryCall(plain, 'CreateTenant', { name: 'x', slug: '' }, { deadlineMs: 2_000 })),
    );
  });

  it('refuses a client whose certificate comes from another CA, even with an operator SPIFFE ID', async () => {
    const other = await createCertificateAuthority();
    const impostor = await other.issue('operator');
    const client = createClient(
      IDENTITY,
      address,
      tlsFromPem({ ...impostor, ca: (await testIdentity('gateway')).ca }),
    );
    clients.push(client);
    expect(
      await statusOf(unaryCall(client, 'CreateTenant', { name: 'x', slug: '' }, { deadlineMs: 2_000 })),
    ).toBe(GrpcStatus.UNAVAILABLE);
  });

  it('does not talk to a server that is not the service the client is for', async () => {
    // An adoption server answering on an identity client's target: the client hangs up.
    const impostor = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: IDENTITY.service,
          implementation: handlers(() => undefined),
        },
      ],
      { tls: await tlsOf('adoption'), allowlist: ALLOWLIST },
    );
    const port = await impostor.listen('127.0.0.1', 0);
    const client = createClient(IDENTITY, `127.0.0.1:${port}`, await tlsOf('operator'));
    try {
      expect(
        await statusOf(unaryCall(client, 'CreateTenant', { name: 'x', slug: '' }, { deadlineMs: 2_000 })),
      ).toBe(GrpcStatus.UNAVAILABLE);
    } finally {
      client.close();
      await impostor.shutdown(500);
    }
  });

  it('will not build a server whose service has a method without an allowlist entry', async () => {
    const partial: RpcAllowlist = Object.fromEntries(paths.slice(1).map((path) => [path, ['gateway']]));
    const tls = await tlsOf('identity');
    expect(() =>
      createGrpcServer(
        [
          {
            name: 'tap.identity.v1.IdentityService',
            definition: IDENTITY.service,
            implementation: handlers(() => undefined),
          },
        ],
        { tls, allowlist: partial },
      ),
    ).toThrow(/No allowlist entry for/);
  });
});

describe('certificate files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'grpc-kit-tls-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const writeAtomically = async (name: string, content: string) => {
    await writeFile(join(dir, `${name}.tmp`), content);
    await rename(join(dir, `${name}.tmp`), join(dir, name));
  };

  it('are read again after a rotation: a new connection gets the new certificate, without a restart', async () => {
    const ca = await createCertificateAuthority();
    const first = await ca.issue('identity');
    await writeAtomically('ca.crt', first.ca);
    await writeAtomically('tls.key', first.key);
    await writeAtomically('tls.crt', first.cert);
    const tls = tlsFromFiles({
      certFile: join(dir, 'tls.crt'),
      keyFile: join(dir, 'tls.key'),
      caFile: join(dir, 'ca.crt'),
      refreshIntervalMs: 100,
    });
    expect(tls.self.service).toBe('identity');
    const server = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: IDENTITY.service,
          implementation: handlers(() => undefined),
        },
      ],
      { tls, allowlist: ALLOWLIST },
    );
    const port = await server.listen('127.0.0.1', 0);
    const gateway = await ca.issue('gateway');
    // The serial number of the certificate the server presents to a new connection.
    const servedSerial = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(
          {
            host: '127.0.0.1',
            port,
            ca: gateway.ca,
            cert: gateway.cert,
            key: gateway.key,
            ALPNProtocols: ['h2'],
            checkServerIdentity: () => undefined,
          },
          () => {
            const serial = socket.getPeerCertificate().serialNumber;
            socket.destroy();
            resolve(serial);
          },
        );
        socket.on('error', reject);
      });
    const client = createClient(IDENTITY, `127.0.0.1:${port}`, tlsFromPem(gateway));
    try {
      expect(await servedSerial()).toBe(new X509Certificate(first.cert).serialNumber);
      expect(await statusOf(unaryCall(client, 'GetJwks', {}))).toBe(GrpcStatus.OK);
      const second = await ca.issue('identity');
      await writeAtomically('tls.key', second.key);
      await writeAtomically('tls.crt', second.cert);
      const wanted = new X509Certificate(second.cert).serialNumber;
      let served = '';
      for (let tries = 0; tries < 200 && served !== wanted; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        served = await servedSerial();
      }
      expect(served).toBe(wanted);
      // The channel opened before the rotation still works, and so does a new one.
      expect(await statusOf(unaryCall(client, 'GetJwks', {}))).toBe(GrpcStatus.OK);
      const fresh = createClient(IDENTITY, `127.0.0.1:${port}`, tlsFromPem(gateway));
      expect(await statusOf(unaryCall(fresh, 'GetJwks', {}))).toBe(GrpcStatus.OK);
      fresh.close();
    } finally {
      client.close();
      await server.shutdown(500);
    }
  });
});
