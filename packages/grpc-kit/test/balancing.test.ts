import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts, type IdentityServiceClient, type IdentityServiceHandlers } from '@tap/contracts';
import {
  createClient,
  createGrpcServer,
  createHealthChecker,
  unaryCall,
  unaryHandler,
  type GrpcServer,
} from '../src/index.js';
import { serverOptions, tlsOf } from './support/test-tls.js';

const silent = { error: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Replica {
  readonly server: GrpcServer;
  readonly port: number;
  /** Calls this replica answered. */
  served(): number;
  /** Calls this replica is answering now. */
  inFlight(): number;
}

/** One replica of a service on loopback: a read (GetJwks) and a write (CreateTenant), each ~10 ms. */
async function startReplica(port = 0): Promise<Replica> {
  let served = 0;
  let inFlight = 0;
  const answer = async <T>(value: T): Promise<T> => {
    inFlight += 1;
    await sleep(10);
    served += 1;
    inFlight -= 1;
    return value;
  };
  const handlers: Partial<IdentityServiceHandlers> = {
    GetJwks: unaryHandler('GetJwks', silent, () => answer({ keys: [] })),
    CreateTenant: unaryHandler('CreateTenant', silent, () =>
      answer({ id: 't', name: 'n', slug: 's', createdAt: '2026-01-01T00:00:00.000Z' }),
    ),
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
  const bound = await server.listen('127.0.0.1', port);
  return { server, port: bound, served: () => served, inFlight: () => inFlight };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** Workers calling a read and a write in turn until stopped; resolves with every failure. */
function startCalls(client: IdentityServiceClient, workers: number): { stop(): Promise<string[]> } {
  const failures: string[] = [];
  let running = true;
  const worker = async (n: number) => {
    for (let i = n; running; i += 1) {
      const call =
        i % 2 === 0
          ? unaryCall(client, 'GetJwks', {})
          : unaryCall(client, 'CreateTenant', { name: 'n', slug: 's' });
      await call.catch((error: Error) =>
        failures.push(`${i % 2 === 0 ? 'read' : 'write'}: ${error.message}`),
      );
    }
  };
  const all = Array.from({ length: workers }, (_, n) => worker(n));
  return {
    async stop() {
      running = false;
      await Promise.all(all);
      return failures;
    },
  };
}

describe('a client of a target with several addresses (round_robin)', () => {
  let a: Replica;
  let b: Replica;
  let comeback: Replica | undefined;
  let client: IdentityServiceClient;

  beforeAll(async () => {
    a = await startReplica();
    b = await startReplica();
    client = createClient(
      contracts().identity.IdentityService,
      `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`,
      await tlsOf('gateway'),
    );
  });
  afterAll(async () => {
    client?.close();
    for (const replica of [a, b, comeback]) await replica?.server.shutdown(500);
  });

  it('spreads calls over every address', async () => {
    // The channel connects to both addresses; the first calls may all go to the first one up.
    const connecting = Date.now() + 2_000;
    while ((a.served() === 0 || b.served() === 0) && Date.now() < connecting)
      await unaryCall(client, 'GetJwks', {});
    const before = { a: a.served(), b: b.served() };
    for (let i = 0; i < 20; i += 1) await unaryCall(client, 'GetJwks', {});
    expect({ a: a.served() - before.a, b: b.served() - before.b }).toEqual({ a: 10, b: 10 });
  });

  it('fails no call while one address shuts down, and sends it calls again within a second of its return', async () => {
    const calls = startCalls(client, 4);
    try {
      await sleep(200);
      // Stop while A is answering a call, so that its graceful finish is what is checked (over
      // TLS, handshakes on a busy machine can leave a moment with nothing in flight on A).
      await until(() => a.inFlight() > 0, 2_000);
      const servedByA = a.served();
      // Graceful stop while calls run: GOAWAY, in-flight calls finish, the port closes.
      await a.server.shutdown(2_000);
      expect(a.served()).toBeGreaterThan(servedByA);
      const servedByB = b.served();
      await sleep(300);
      expect(b.served()).toBeGreaterThan(servedByB);

      const back = await startReplica(a.port);
      comeback = back;
      const listeningAt = Date.now();
      await until(() => back.served() > 0, 2_000);
      expect(Date.now() - listeningAt).toBeLessThan(1_000);
    } finally {
      expect(await calls.stop()).toEqual([]);
    }
  });
});

describe('a server with a maximum connection age', () => {
  it('closes each connection at that age without failing a call, and the client connects again', async () => {
    const peers = new Set<string>();
    const handlers: Partial<IdentityServiceHandlers> = {
      // A plain grpc-js handler: the peer address tells the connections apart.
      GetJwks: (call, callback) => {
        peers.add(call.getPeer());
        setTimeout(() => callback(null, { keys: [] }), 10);
      },
      CreateTenant: unaryHandler('CreateTenant', silent, async () => ({
        id: 't',
        name: 'n',
        slug: 's',
        createdAt: '2026-01-01T00:00:00.000Z',
      })),
    };
    const server = createGrpcServer(
      [
        {
          name: 'tap.identity.v1.IdentityService',
          definition: contracts().identity.IdentityService.service,
          implementation: handlers as IdentityServiceHandlers,
        },
      ],
      { ...(await serverOptions()), maxConnectionAgeMs: 200, maxConnectionAgeGraceMs: 1_000 },
    );
    const port = await server.listen('127.0.0.1', 0);
    const client = createClient(
      contracts().identity.IdentityService,
      `127.0.0.1:${port}`,
      await tlsOf('gateway'),
    );
    try {
      const calls = startCalls(client, 4);
      await sleep(1_000);
      expect(await calls.stop()).toEqual([]);
      expect(peers.size).toBeGreaterThanOrEqual(3);
    } finally {
      client.close();
      await server.shutdown(500);
    }
  });
});

describe('a dns:/// target', () => {
  it('reaches the server and its health service', async () => {
    const replica = await startReplica();
    const target = `dns:///localhost:${replica.port}`;
    const client = createClient(contracts().identity.IdentityService, target, await tlsOf('gateway'));
    const checker = createHealthChecker(target, await tlsOf('gateway'), 'identity');
    try {
      await expect(unaryCall(client, 'GetJwks', {})).resolves.toEqual({ keys: [] });
      await expect(checker.check()).resolves.toBeUndefined();
    } finally {
      client.close();
      checker.close();
      await replica.server.shutdown(500);
    }
  });
});
