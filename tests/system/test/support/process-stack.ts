import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { contracts, type ProductEvent } from '@tap/contracts';
import { createEventPublisher } from '@tap/events';
import { createClient, unaryCall } from '@tap/grpc-kit';
import {
  freeLoopbackPort,
  infraUrls,
  testIdentityEnv,
  testNamespace,
  type OidcTestProvider,
} from '@tap/testkit';
import { MongoClient } from 'mongodb';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.js';
import { startProcessSso, type ProcessSso } from './process-sso.js';
import { identityClientAt, tlsOf } from './service-tls.js';
import { probe, startServiceProcess, type ServiceProcess } from './service-process.js';
import { waitFor } from './wait-for.js';

const OPERATOR_TOKEN = 'process-stack-operator-token-0123456789abcd';
const SECRETS = { OPERATOR_TOKEN, KEY_ENCRYPTION_SECRET: 'process-stack-key-encryption-secret-012345' };
/**
 * After a new gRPC process is ready, how long before the old one stops (Kubernetes'
 * minReadySeconds): callers retry a down address every 250 ms at most (grpc-kit's reconnect
 * backoff, ±20 % jitter), so by then every caller has a connection to the new process.
 */
const MIN_READY_MS = 500;
/** After a gateway leaves the proxy's pool, how long the requests already forwarded to it get. */
const IN_FLIGHT_MS = 300;

/** The three gRPC services, in the order they are started. */
export const GRPC_SERVICES = ['identity', 'entitlements', 'adoption'] as const;
export type GrpcServiceName = (typeof GRPC_SERVICES)[number];
/**
 * Notifications (webhooks, events feed, audit log) runs beside them, started with them; it is
 * not among GRPC_SERVICES, which the rolling-restart test rolls in turn.
 */
export type ServiceName = GrpcServiceName | 'notifications' | 'gateway';
/** Seals the stack's webhook secrets (notifications' WEBHOOK_SECRET_ENCRYPTION_KEY). */
const WEBHOOK_KEY = 'process-stack-webhook-secret-encryption-key-0123';

/** The ports of one process of a service; each service has two slots, "blue" and "green". */
interface Slot {
  /** What callers use: gRPC (identity, adoption, entitlements), the gateway's HTTP API. */
  readonly port: number;
  /** Health and metrics over HTTP (for the gateway, GATEWAY_METRICS_PORT). */
  readonly adminPort: number;
}

/** One rolled service: the old process's exit code and when each step happened (epoch ms). */
export interface Roll {
  readonly service: ServiceName;
  readonly code: number;
  /** The new process was spawned. */
  readonly startedAt: number;
  /** Its /readyz answered 200. */
  readonly readyAt: number;
  /** SIGTERM to the old process. */
  readonly signalledAt: number;
  readonly exitedAt: number;
}

/** The five built services running as processes on loopback, the gateway behind a proxy. */
export interface ProcessStack {
  /** The proxy in front of the gateway, `http://127.0.0.1:<port>`. */
  readonly base: string;
  readonly namespace: string;
  readonly mongo: MongoClient;
  readonly databases: Readonly<Record<GrpcServiceName | 'notifications', string>>;
  /** The running process of a service. */
  process(name: ServiceName): ServiceProcess;
  /**
   * Replaces the process of `name` as a Kubernetes rollout with maxSurge 1, maxUnavailable 0
   * does: the new process starts on the free slot; once ready (and, for a gRPC service, once its
   * callers have connected; for the gateway, once in the proxy's pool and the old one out of it)
   * the old one gets SIGTERM. Resolves when the old one has exited.
   */
  roll(name: ServiceName): Promise<Roll>;
  /** A tenant and an OWNER access token for it (operator RPCs on identity). */
  createTenant(name: string): Promise<{ tenantId: string; bearer: string }>;
  /** A tenant and its OWNER, who signs in with this e-mail and password (operator RPC on identity). */
  createTenantWithOwner(
    name: string,
    owner: { email: string; password: string; firstName: string; lastName: string },
  ): Promise<{ tenantId: string }>;
  /** Gates an e-mail domain: sign-ups from it become join requests of the tenant (operator RPC). */
  claimJoinDomain(tenantId: string, domain: string): Promise<void>;
  /** The OpenID Providers by key when started with `{ sso: true }`, else empty. */
  readonly ssoProviders: ReadonlyMap<string, OidcTestProvider>;
  /** Sets a tenant's tier (operator RPC on entitlements). */
  setTier(tenantId: string, tierCode: string): Promise<void>;
  publish(event: ProductEvent): Promise<unknown>;
  /** What every process of `name` started so far wrote (warnings and errors), oldest first. */
  logs(name: ServiceName): string;
  /** GET `path` on the admin port (health, /metrics) of the service's running process, as text. */
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

async function allocateSlots(): Promise<Record<ServiceName, readonly [Slot, Slot]>> {
  const slot = async (): Promise<Slot> => ({
    port: await freeLoopbackPort(),
    adminPort: await freeLoopbackPort(),
  });
  const pair = async () => [await slot(), await slot()] as const;
  return {
    identity: await pair(),
    entitlements: await pair(),
    adoption: await pair(),
    notifications: await pair(),
    gateway: await pair(),
  };
}

/** `ipv4:127.0.0.1:<blue>,127.0.0.1:<green>`: callers balance over both slots of a service. */
function target(slots: readonly [Slot, Slot]): string {
  return `ipv4:${slots.map((slot) => `127.0.0.1:${slot.port}`).join(',')}`;
}

export interface ProcessStackOptions {
  /**
   * Two real OpenID Providers (`enterprise`, `consumer`; process-sso.ts) and the gateway's
   * `SSO_PROVIDERS`, `APP_URL`, `PUBLIC_API_URL`, `ALLOWED_ORIGINS`: the SSO routes are served
   * (and in the OpenAPI document) only when providers are configured.
   */
  readonly sso?: boolean;
  /**
   * The web console is the app (apps/console, served by the gateway): `APP_URL` and
   * `ALLOWED_ORIGINS` are the gateway's own public origin and identity's magic links
   * (`MAGIC_LINK_URL`) land on its `/auth/magic-link` page.
   */
  readonly console?: boolean;
}

/**
 * Starts identity, entitlements, adoption and the gateway as processes, each in its own namespace.
 * `extraEnv` goes to every process.
 */
export async function startProcessStack(
  label: string,
  extraEnv: Readonly<Record<string, string>> = {},
  options: ProcessStackOptions = {},
): Promise<ProcessStack> {
  const urls = infraUrls();
  const namespace = testNamespace(label);
  const slots = await allocateSlots();
  const databases = {
    identity: `${namespace}_i`,
    entitlements: `${namespace}_e`,
    adoption: `${namespace}_a`,
    notifications: `${namespace}_n`,
  };
  const events = { EVENTS_STREAM: namespace.toUpperCase(), EVENTS_SUBJECT_PREFIX: namespace };
  const common = {
    ...SECRETS,
    MONGO_URL: urls.mongoUrl,
    NATS_URL: urls.natsUrl,
    REDIS_URL: urls.redisUrl,
    // This stack's own domain stream: identity and entitlements publish there (not on the
    // shared DOMAIN_EVENTS of other test files).
    DOMAIN_EVENTS_STREAM: `${namespace.toUpperCase()}_DOMAIN`,
    DOMAIN_EVENTS_SUBJECT_PREFIX: `${namespace}_domain`,
    ...extraEnv,
    IDENTITY_GRPC_ADDRESS: target(slots.identity),
    ENTITLEMENTS_GRPC_ADDRESS: target(slots.entitlements),
    ADOPTION_GRPC_ADDRESS: target(slots.adoption),
    NOTIFICATIONS_GRPC_ADDRESS: target(slots.notifications),
  };
  // Each process its own certificate from the test PKI, as files (GRPC_TLS_*).
  const pkiDir = await mkdtemp(join(tmpdir(), 'tap-process-pki-'));
  const tls = {
    identity: await testIdentityEnv(pkiDir, 'identity'),
    entitlements: await testIdentityEnv(pkiDir, 'entitlements'),
    adoption: await testIdentityEnv(pkiDir, 'adoption'),
    notifications: await testIdentityEnv(pkiDir, 'notifications'),
    gateway: await testIdentityEnv(pkiDir, 'gateway'),
  };
  const env: Record<ServiceName, Record<string, string>> = {
    identity: { ...common, ...tls.identity, IDENTITY_MONGO_DB: databases.identity },
    entitlements: {
      ...common,
      ...tls.entitlements,
      ...events,
      ENTITLEMENTS_CONSUMER: `${namespace}_e`,
      ENTITLEMENTS_MONGO_DB: databases.entitlements,
    },
    adoption: {
      ...common,
      ...tls.adoption,
      ...events,
      ADOPTION_CONSUMER: `${namespace}_a`,
      ADOPTION_MONGO_DB: databases.adoption,
      // Its outbound events go to the domain stream this stack's notifications consumes.
      DOMAIN_EVENTS_STREAM: `${events.EVENTS_STREAM}_DOMAIN`,
      DOMAIN_EVENTS_SUBJECT_PREFIX: `${namespace}_domain`,
    },
    // Its own domain stream; deliveries to a receiver on loopback only (the tests' own).
    notifications: {
      ...common,
      ...tls.notifications,
      ...events,
      NOTIFICATIONS_CONSUMER: `${namespace}_n`,
      NOTIFICATIONS_MONGO_DB: databases.notifications,
      DOMAIN_EVENTS_STREAM: `${events.EVENTS_STREAM}_DOMAIN`,
      DOMAIN_EVENTS_SUBJECT_PREFIX: `${namespace}_domain`,
      WEBHOOK_SECRET_ENCRYPTION_KEY: WEBHOOK_KEY,
      WEBHOOK_DEV_ALLOWED_HOSTS: '127.0.0.1',
    },
    // The gateway hears the services' change notices on the same prefix (its answer cache).
    gateway: {
      ...common,
      ...tls.gateway,
      EVENTS_SUBJECT_PREFIX: events.EVENTS_SUBJECT_PREFIX,
      // Its own limiter keys: the per-address limits of one stack's tests (the fuzz gate sends
      // hundreds of token requests from 127.0.0.1) must not spill into the next stack's.
      GATEWAY_RATE_LIMIT_PREFIX: `${namespace}_rl`,
    },
  };
  const portEnv = (name: ServiceName, slot: Slot): Record<string, string> =>
    name === 'gateway'
      ? { GATEWAY_PORT: `${slot.port}`, GATEWAY_METRICS_PORT: `${slot.adminPort}` }
      : {
          [`${name.toUpperCase()}_GRPC_PORT`]: `${slot.port}`,
          [`${name.toUpperCase()}_HTTP_PORT`]: `${slot.adminPort}`,
        };
  // /readyz and /metrics: on each service's admin port (a gRPC service's health port, the
  // gateway's metrics port; the gateway's API port has no /metrics).
  const adminPort = (slot: Slot) => slot.adminPort;

  const running = new Map<ServiceName, { service: ServiceProcess; slot: Slot }>();
  const all: Array<{ name: ServiceName; service: ServiceProcess }> = [];
  const launch = async (name: ServiceName, slot: Slot) => {
    const service = startServiceProcess(name, { ...env[name], ...portEnv(name, slot) });
    all.push({ name, service });
    await waitReady(adminPort(slot), service);
    return { service, slot };
  };
  const current = (name: ServiceName) => {
    const entry = running.get(name);
    if (!entry) throw new Error(`${name} is not running`);
    return entry;
  };

  const mongo = new MongoClient(urls.mongoUrl);
  let nc: NatsConnection | undefined;
  let proxy: LoopbackProxy | undefined;
  let sso: ProcessSso | undefined;
  const identityClient = await identityClientAt(common.IDENTITY_GRPC_ADDRESS);
  // SetTier is the operator's (by certificate alone: entitlements holds no operator token).
  const entitlementsClient = createClient(
    contracts().entitlements.EntitlementsService,
    common.ENTITLEMENTS_GRPC_ADDRESS,
    await tlsOf('operator'),
  );
  const stop = async () => {
    identityClient.close();
    entitlementsClient.close();
    await nc?.close();
    await mongo.close();
    const children = all.map((entry) => entry.service);
    for (const service of children) if (service.child.exitCode === null) service.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(children.map((s) => s.exited())),
      new Promise((resolve) => (timer = setTimeout(resolve, 10_000))),
    ]);
    clearTimeout(timer);
    for (const service of children) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await proxy?.close();
    await sso?.stop();
    await rm(pkiDir, { recursive: true, force: true });
  };
  try {
    // The proxy first, with no backend yet: its address is the public one the SSO providers
    // redirect back to.
    proxy = await startLoopbackProxy([]);
    if (options.sso) {
      sso = await startProcessSso(proxy.base);
      Object.assign(env.gateway, sso.env);
    }
    if (options.console) {
      Object.assign(env.gateway, { APP_URL: proxy.base, ALLOWED_ORIGINS: proxy.base });
      Object.assign(env.identity, { MAGIC_LINK_URL: `${proxy.base}/auth/magic-link` });
    }
    // Identity first (the others fetch its keys), then the rest together, all on their blue slot.
    running.set('identity', await launch('identity', slots.identity[0]));
    const [entitlements, adoption, notifications] = await Promise.all([
      launch('entitlements', slots.entitlements[0]),
      launch('adoption', slots.adoption[0]),
      launch('notifications', slots.notifications[0]),
    ]);
    running.set('entitlements', entitlements);
    running.set('adoption', adoption);
    running.set('notifications', notifications);
    running.set('gateway', await launch('gateway', slots.gateway[0]));
    proxy.add(slots.gateway[0].port);
    nc = await connect({ servers: urls.natsUrl });
  } catch (error) {
    await stop();
    throw error;
  }
  const gatewayProxy = proxy;

  const roll = async (name: ServiceName): Promise<Roll> => {
    const old = current(name);
    const [blue, green] = slots[name];
    const startedAt = Date.now();
    const next = await launch(name, old.slot === blue ? green : blue);
    const readyAt = Date.now();
    running.set(name, next);
    if (name === 'gateway') {
      // The endpoints controller: the ready pod joins the Service, the terminating one leaves it.
      gatewayProxy.add(next.slot.port);
      gatewayProxy.remove(old.slot.port);
      await sleep(IN_FLIGHT_MS);
    } else {
      await sleep(MIN_READY_MS);
    }
    const signalledAt = Date.now();
    old.service.child.kill('SIGTERM');
    const { code, at: exitedAt } = await old.service.exited();
    return { service: name, code, startedAt, readyAt, signalledAt, exitedAt };
  };

  const publisher = createEventPublisher(jetstream(nc), { subjectPrefix: namespace });
  const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
  return {
    base: gatewayProxy.base,
    namespace,
    mongo,
    databases,
    process: (name) => current(name).service,
    roll,
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
    ssoProviders: sso?.providers ?? new Map(),
    async createTenantWithOwner(name, owner) {
      const created = await unaryCall(
        identityClient,
        'CreateTenantWithOwner',
        { name, slug: '', owner },
        operator,
      );
      return { tenantId: created.tenant!.id };
    },
    async claimJoinDomain(tenantId, domain) {
      await unaryCall(identityClient, 'ClaimJoinDomain', { tenantId, domain }, operator);
    },
    async setTier(tenantId, tierCode) {
      await unaryCall(entitlementsClient, 'SetTier', { tenantId, tierCode });
    },
    publish: (event) => publisher.publish(event),
    logs: (name) =>
      all
        .filter((entry) => entry.name === name)
        .map((entry) => entry.service.stdout() + entry.service.stderr())
        .join(''),
    async text(name, path) {
      const response = await fetch(`http://127.0.0.1:${adminPort(current(name).slot)}${path}`, {
        signal: AbortSignal.timeout(5_000),
      });
      return response.text();
    },
    stop,
  };
}
