import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { contracts } from '@tap/contracts';
import { createEventPublisher } from '@tap/events';
import { createClient, tlsFromFiles, unaryCall } from '@tap/grpc-kit';
import { ensureDevPki } from '@tap/testkit';
import { MongoClient } from 'mongodb';
import { freePort, startNode, waitUntil } from '../identity/processes.mjs';

const OPERATOR_TOKEN = 'bench-operator-token-0123456789abcdef-0123';
const KEY_ENCRYPTION_SECRET = 'bench-key-encryption-secret-0123456789abcdef';
const DEADLINE = { deadlineMs: 10_000 };
/** As deploy/k8s/base/kustomization.yaml and `npm run up` (tools/cli stack) start the services. */
const SERVICE_NODE_OPTIONS = '--max-old-space-size=320 --max-semi-space-size=16';
/** @typedef {'identity' | 'entitlements' | 'adoption' | 'gateway'} ServiceName */

/**
 * The four services as `npm run up` runs them: one process each from its built `dist/main.js`,
 * production wiring and caches, mutual TLS from a fresh local CA, every name under `namespace`
 * (databases, stream, subjects, consumers). Ports are free loopback ones.
 * @param {{ mongoUrl: string; natsUrl: string; redisUrl: string }} urls
 * @param {string} namespace
 * @param {{ profileDir?: string; gatewayEnv?: Record<string, string> }} [options] CPU profiles of
 *   every service (node --cpu-prof); more of the gateway's environment
 */
export async function startStack(urls, namespace, options = {}) {
  const pkiDir = mkdtempSync(join(tmpdir(), 'bench-reads-pki-'));
  const pki = await ensureDevPki(pkiDir);
  /** @param {string} name */
  const tls = (name) => ({
    certFile: join(pki[name] ?? '', 'tls.crt'),
    keyFile: join(pki[name] ?? '', 'tls.key'),
    caFile: join(pki[name] ?? '', 'ca.crt'),
  });
  /** @param {string} name */
  const tlsEnv = (name) => ({
    GRPC_TLS_CERT_FILE: tls(name).certFile,
    GRPC_TLS_KEY_FILE: tls(name).keyFile,
    GRPC_TLS_CA_FILE: tls(name).caFile,
  });
  const ports = {
    identity: [await freePort(), await freePort()],
    entitlements: [await freePort(), await freePort()],
    adoption: [await freePort(), await freePort()],
    gateway: [await freePort(), await freePort()],
  };
  const address = (/** @type {ServiceName} */ name) => `127.0.0.1:${ports[name][0]}`;
  const common = {
    MONGO_URL: urls.mongoUrl,
    NATS_URL: urls.natsUrl,
    REDIS_URL: urls.redisUrl,
    OPERATOR_TOKEN,
    KEY_ENCRYPTION_SECRET,
    LOG_LEVEL: 'warn',
    // The V8 heap cap every deployment sets (deploy/k8s/base/kustomization.yaml, NODE_OPTIONS):
    // without it V8 sizes its heap, the young generation among it, from this machine's memory.
    NODE_OPTIONS: SERVICE_NODE_OPTIONS,
    // As every deployment sets it (deploy/k8s/base/kustomization.yaml): fewer glibc arenas.
    MALLOC_ARENA_MAX: '2',
    IDENTITY_GRPC_ADDRESS: address('identity'),
    ENTITLEMENTS_GRPC_ADDRESS: address('entitlements'),
    ADOPTION_GRPC_ADDRESS: address('adoption'),
  };
  const events = { EVENTS_STREAM: namespace.toUpperCase(), EVENTS_SUBJECT_PREFIX: namespace };
  /** @type {Record<ServiceName, Record<string, string>>} */
  const env = {
    identity: { ...common, ...tlsEnv('identity'), IDENTITY_MONGO_DB: `${namespace}_i` },
    entitlements: {
      ...common,
      ...tlsEnv('entitlements'),
      ...events,
      ENTITLEMENTS_CONSUMER: `${namespace}_e`,
      ENTITLEMENTS_MONGO_DB: `${namespace}_e`,
    },
    adoption: {
      ...common,
      ...tlsEnv('adoption'),
      ...events,
      ADOPTION_CONSUMER: `${namespace}_a`,
      ADOPTION_MONGO_DB: `${namespace}_a`,
      // Its outbound events on a stream of this stack's own, not the shared default.
      DOMAIN_EVENTS_STREAM: `${events.EVENTS_STREAM}_DOMAIN`,
      DOMAIN_EVENTS_SUBJECT_PREFIX: `${namespace}_domain`,
    },
    // The gateway hears the services' change notices on the same prefix (its answer cache).
    gateway: {
      ...common,
      ...tlsEnv('gateway'),
      EVENTS_SUBJECT_PREFIX: namespace,
      // GATEWAY_ANSWER_REUSE_MS=0 in the bench's environment measures the reads without the cache.
      ...(process.env['GATEWAY_ANSWER_REUSE_MS'] === undefined
        ? {}
        : { GATEWAY_ANSWER_REUSE_MS: process.env['GATEWAY_ANSWER_REUSE_MS'] }),
      ...options.gatewayEnv,
    },
  };
  const profileArgs = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  /** @type {Partial<Record<ServiceName, ReturnType<typeof startNode>>>} */
  const running = {};
  /** @param {ServiceName} name */
  const launch = async (name) => {
    const [port, adminPort] = ports[name];
    const portEnv =
      name === 'gateway'
        ? { GATEWAY_PORT: `${port}`, GATEWAY_METRICS_PORT: `${adminPort}` }
        : {
            [`${name.toUpperCase()}_GRPC_PORT`]: `${port}`,
            [`${name.toUpperCase()}_HTTP_PORT`]: `${adminPort}`,
          };
    const service = startNode(`services/${name}/dist/main.js`, { ...env[name], ...portEnv }, profileArgs);
    running[name] = service;
    await waitUntil(
      async () => ((await fetch(`http://127.0.0.1:${adminPort}/readyz`)).ok ? true : undefined),
      name,
      () => service.stderr() + service.stdout(),
    );
  };
  const stopAll = async () => {
    // The gateway first, identity last (the others hold its key set).
    for (const name of /** @type {ServiceName[]} */ (['gateway', 'adoption', 'entitlements', 'identity']))
      await running[name]?.stop();
  };
  try {
    await launch('identity');
    await Promise.all([launch('entitlements'), launch('adoption')]);
    await launch('gateway');
  } catch (error) {
    await stopAll();
    rmSync(pkiDir, { recursive: true, force: true });
    throw error;
  }
  const identity = createClient(
    contracts().identity.IdentityService,
    address('identity'),
    tlsFromFiles(tls('operator')),
  );
  const entitlements = createClient(
    contracts().entitlements.EntitlementsService,
    address('entitlements'),
    tlsFromFiles(tls('operator')),
  );
  const operator = { authorization: `Operator ${OPERATOR_TOKEN}`, ...DEADLINE };
  const nc = await connect({ servers: urls.natsUrl, name: namespace });
  const mongo = new MongoClient(urls.mongoUrl);
  const publisher = createEventPublisher(jetstream(nc), { subjectPrefix: namespace });
  return {
    gatewayPort: ports.gateway[0],
    /** Each service's admin port (GET /metrics). */
    adminPorts: Object.fromEntries(Object.entries(ports).map(([name, [, admin]]) => [name, admin])),
    pids: () =>
      Object.fromEntries(Object.entries(running).map(([name, service]) => [name, service?.child.pid])),
    /** A new tenant on `tierCode` and an OWNER access token of it. */
    async tenantWithOwnerToken(/** @type {string} */ name, /** @type {string} */ tierCode) {
      const tenant = await unaryCall(identity, 'CreateTenant', { name, slug: '' }, operator);
      await unaryCall(entitlements, 'SetTier', { tenantId: tenant.id, tierCode }, DEADLINE);
      const issued = await unaryCall(
        identity,
        'IssueAccessToken',
        { tenantId: tenant.id, role: 'OWNER', scopes: [], subject: '' },
        operator,
      );
      return { tenantId: tenant.id, bearer: `Bearer ${issued.accessToken}` };
    },
    /** A fresh OWNER access token of an existing tenant (tokens last 15 minutes). */
    async ownerToken(/** @type {string} */ tenantId) {
      const issued = await unaryCall(
        identity,
        'IssueAccessToken',
        { tenantId, role: 'OWNER', scopes: [], subject: '' },
        operator,
      );
      return `Bearer ${issued.accessToken}`;
    },
    /** A new OAuth client of the tenant: its id and secret. */
    async oauthClient(/** @type {string} */ tenantId) {
      const made = await unaryCall(
        identity,
        'CreateOAuthClient',
        { tenantId, name: 'bench', scopes: ['products:read'] },
        operator,
      );
      return { clientId: made.client?.clientId ?? '', clientSecret: made.clientSecret };
    },
    /**
     * A client-credentials token, obtained as an integration obtains it: `POST /oauth/token`
     * through the gateway (tokens last 15 minutes). `address`, when given, is sent as
     * X-Forwarded-For (a gateway started with GATEWAY_TRUST_PROXY_HOPS=1, as behind its ingress).
     * @param {{ clientId: string; clientSecret: string }} client @param {string} [address]
     */
    async clientToken(client, address) {
      const response = await fetch(`http://127.0.0.1:${ports.gateway[0]}/api/v1/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(address ? { 'x-forwarded-for': address } : {}),
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }).toString(),
      });
      if (!response.ok) throw new Error(`oauth/token: ${response.status} ${await response.text()}`);
      return `Bearer ${/** @type {{ access_token: string }} */ (await response.json()).access_token}`;
    },
    /** Drops every event not yet consumed (a bounded phase that ran out of time leaves none behind). */
    async purgeEvents() {
      await (await jetstreamManager(nc)).streams.purge(namespace.toUpperCase());
    },
    /** A service's database, to look past its caches. */
    database: (/** @type {'identity' | 'entitlements' | 'adoption'} */ name) =>
      mongo.db(`${namespace}_${name[0]}`),
    logs: () =>
      Object.entries(running)
        .map(([name, service]) => `--- ${name}\n${service?.stdout() ?? ''}${service?.stderr() ?? ''}`)
        .join('\n'),
    publish: (/** @type {import('@tap/contracts').ProductEvent} */ event) => publisher.publish(event),
    async stop() {
      identity.close();
      entitlements.close();
      await nc.drain().catch(() => undefined);
      await stopAll();
      rmSync(pkiDir, { recursive: true, force: true });
      for (const suffix of ['i', 'e', 'a'])
        await mongo
          .db(`${namespace}_${suffix}`)
          .dropDatabase()
          .catch(() => undefined);
      await mongo.close();
    },
  };
}
