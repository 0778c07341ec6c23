import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { contracts, type ProductEvent } from '@tap/contracts';
import { createEventPublisher } from '@tap/events';
import { createClient, unaryCall } from '@tap/grpc-kit';
import { freeLoopbackPort, infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient } from 'mongodb';
import { probe, startServiceProcess, type ServiceProcess } from './service-process.js';
import { waitFor } from './wait-for.js';

const OPERATOR_TOKEN = 'process-stack-operator-token-0123456789abcd';
const SECRETS = { OPERATOR_TOKEN, KEY_ENCRYPTION_SECRET: 'process-stack-key-encryption-secret-012345' };

/** The three gRPC services, in the order they are started. */
export const GRPC_SERVICES = ['identity', 'entitlements', 'adoption'] as const;
export type GrpcServiceName = (typeof GRPC_SERVICES)[number];
export type ServiceName = GrpcServiceName | 'gateway';

/** The four built services running as processes on loopback, on fixed ports for the test's life. */
export interface ProcessStack {
  /** `http://127.0.0.1:<gateway port>`. */
  readonly base: string;
  /** The HTTP (health and metrics) port of each service; the gateway's is its API port. */
  readonly httpPorts: Readonly<Record<ServiceName, number>>;
  readonly namespace: string;
  readonly mongo: MongoClient;
  readonly databases: Readonly<Record<GrpcServiceName, string>>;
  /** The running process of a service. */
  process(name: ServiceName): ServiceProcess;
  /** Starts a fresh process of `name` with the same environment and ports; resolves once it is ready. */
  start(name: ServiceName): Promise<ServiceProcess>;
  /** A tenant and an OWNER access token for it (operator RPCs on identity). */
  createTenant(name: string): Promise<{ tenantId: string; bearer: string }>;
  publish(event: ProductEvent): Promise<unknown>;
  /** GET `path` on the service's HTTP port as text. */
  text(name: ServiceName, path: string): Promise<string>;
  /** SIGTERM to every process, SIGKILL to any still there after 10 s; closes the clients. */
  stop(): Promise<void>;
}

async function waitReady(port: number, service: ServiceProcess): Promise<void> {
  try {
    await waitFor(
      async () => ((await probe(`http://127.0.0.1:${port}/readyz`)) === 200 ? true : undefined),
      30_000,
      100,
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; logs: ${service.stdout().slice(-2_000)} ${service.stderr().slice(-2_000)}`,
    );
  }
}

/** Starts identity, entitlements, adoption and the gateway as processes, each in its own namespace. */
export async function startProcessStack(label: string): Promise<ProcessStack> {
  const urls = infraUrls();
  const namespace = testNamespace(label);
  const port = () => freeLoopbackPort();
  const grpcPorts = { identity: await port(), entitlements: await port(), adoption: await port() };
  const httpPorts = {
    identity: await port(),
    entitlements: await port(),
    adoption: await port(),
    gateway: await port(),
  };
  const databases = {
    identity: `${namespace}_i`,
    entitlements: `${namespace}_e`,
    adoption: `${namespace}_a`,
  };
  const events = { EVENTS_STREAM: namespace.toUpperCase(), EVENTS_SUBJECT_PREFIX: namespace };
  const common = {
    ...SECRETS,
    MONGO_URL: urls.mongoUrl,
    NATS_URL: urls.natsUrl,
    REDIS_URL: urls.redisUrl,
    ...(process.env['NO_RETRY_EXPERIMENT'] ? { NO_RETRY_EXPERIMENT: '1' } : {}),
    IDENTITY_GRPC_ADDRESS: `127.0.0.1:${grpcPorts.identity}`,
    ENTITLEMENTS_GRPC_ADDRESS: `127.0.0.1:${grpcPorts.entitlements}`,
    ADOPTION_GRPC_ADDRESS: `127.0.0.1:${grpcPorts.adoption}`,
  };
  const env: Record<ServiceName, Record<string, string>> = {
    identity: {
      ...common,
      IDENTITY_MONGO_DB: databases.identity,
      IDENTITY_GRPC_PORT: `${grpcPorts.identity}`,
      IDENTITY_HTTP_PORT: `${httpPorts.identity}`,
    },
    entitlements: {
      ...common,
      ...events,
      ENTITLEMENTS_CONSUMER: `${namespace}_e`,
      ENTITLEMENTS_MONGO_DB: databases.entitlements,
      ENTITLEMENTS_GRPC_PORT: `${grpcPorts.entitlements}`,
      ENTITLEMENTS_HTTP_PORT: `${httpPorts.entitlements}`,
    },
    adoption: {
      ...common,
      ...events,
      ADOPTION_CONSUMER: `${namespace}_a`,
      ADOPTION_MONGO_DB: databases.adoption,
      ADOPTION_GRPC_PORT: `${grpcPorts.adoption}`,
      ADOPTION_HTTP_PORT: `${httpPorts.adoption}`,
    },
    gateway: { ...common, GATEWAY_PORT: `${httpPorts.gateway}` },
  };
  const running = new Map<ServiceName, ServiceProcess>();
  const all: ServiceProcess[] = [];
  const start = async (name: ServiceName): Promise<ServiceProcess> => {
    const service = startServiceProcess(name, env[name]);
    running.set(name, service);
    all.push(service);
    await waitReady(httpPorts[name], service);
    return service;
  };
  const mongo = new MongoClient(urls.mongoUrl);
  let nc: NatsConnection | undefined;
  const identityClient = createClient(contracts().identity.IdentityService, common.IDENTITY_GRPC_ADDRESS);
  const stop = async () => {
    identityClient.close();
    await nc?.close();
    await mongo.close();
    for (const service of all) if (service.child.exitCode === null) service.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(all.map((s) => s.exited())),
      new Promise((resolve) => (timer = setTimeout(resolve, 10_000))),
    ]);
    clearTimeout(timer);
    for (const service of all) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  };
  try {
    // Identity first (the others fetch its keys), then the rest together.
    await start('identity');
    await Promise.all([start('entitlements'), start('adoption')]);
    await start('gateway');
    nc = await connect({ servers: urls.natsUrl });
  } catch (error) {
    await stop();
    throw error;
  }
  const publisher = createEventPublisher(jetstream(nc), { subjectPrefix: namespace });
  const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
  return {
    base: `http://127.0.0.1:${httpPorts.gateway}`,
    httpPorts,
    namespace,
    mongo,
    databases,
    process: (name) => {
      const service = running.get(name);
      if (!service) throw new Error(`${name} is not running`);
      return service;
    },
    start,
    async createTenant(name) {
      const tenant = await unaryCall(identityClient, 'CreateTenant', { name, slug: '' }, operator);
      const issued = await unaryCall(
        identityClient,
        'IssueAccessToken',
        { tenantId: tenant.id, role: 'OWNER', scopes: [], subject: '' },
        operator,
      );
      return { tenantId: tenant.id, bearer: `Bearer ${issued.accessToken}` };
    },
    publish: (event) => publisher.publish(event),
    async text(name, path) {
      const response = await fetch(`http://127.0.0.1:${httpPorts[name]}${path}`, {
        signal: AbortSignal.timeout(5_000),
      });
      return response.text();
    },
    stop,
  };
}
